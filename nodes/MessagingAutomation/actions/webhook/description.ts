import type { INodeProperties } from 'n8n-workflow';

import { WEBHOOK_EVENT_TYPES } from '../../../shared/client/webhookEndpoints';
import { enumOptions } from '../tool/fields/fieldProperty';

const show = (operation: string[]) => ({ show: { resource: ['webhook'], operation } });

const eventTypes = {
	displayName: 'Event Types',
	name: 'eventTypes',
	type: 'multiOptions',
	options: enumOptions(WEBHOOK_EVENT_TYPES),
	default: ['message.received'],
	description: 'Events the endpoint receives',
} satisfies INodeProperties;

export const webhookDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhook'] } },
		options: [
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a webhook endpoint',
				description: 'Stop and remove an endpoint',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a webhook endpoint',
				description: 'Get one endpoint',
			},
			{
				name: 'Get Many',
				value: 'list',
				action: 'Get many webhook endpoints',
				description: 'List the endpoints of the account',
			},
			{
				name: 'List Deliveries',
				value: 'listDeliveries',
				action: 'List deliveries of a webhook endpoint',
				description: 'Recent deliveries of one endpoint',
			},
			{
				name: 'Pause',
				value: 'pause',
				action: 'Pause a webhook endpoint',
				description: 'Stop deliveries until resumed',
			},
			{
				name: 'Register',
				value: 'register',
				action: 'Register a webhook endpoint',
				description: 'Create an endpoint; its signing secret is returned only now',
			},
			{
				name: 'Resend Delivery',
				value: 'resendDelivery',
				action: 'Resend a webhook delivery',
				description: 'Queue a delivery again while its payload is kept (7 days)',
			},
			{
				name: 'Resume',
				value: 'resume',
				action: 'Resume a webhook endpoint',
				description: 'Restart deliveries of a paused endpoint',
			},
			{
				name: 'Rotate Secret',
				value: 'rotateSecret',
				action: 'Rotate the secret of a webhook endpoint',
				description: 'New signing secret; the old one stays valid for 24 hours',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a webhook endpoint',
				description: 'Change the URL or the event types',
			},
		],
		default: 'list',
	},
	{
		displayName: 'Endpoint ID',
		name: 'webhookId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. we_123',
		displayOptions: show([
			'get',
			'update',
			'pause',
			'resume',
			'delete',
			'rotateSecret',
			'listDeliveries',
			'resendDelivery',
		]),
		description: 'ID of the webhook endpoint (we_...)',
	},
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://example.com/webhook',
		displayOptions: show(['register']),
		description: 'Public HTTPS address that receives the signed events',
	},
	{ ...eventTypes, required: true, displayOptions: show(['register']) },
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show(['update']),
		options: [
			eventTypes,
			{
				displayName: 'URL',
				name: 'url',
				type: 'string',
				default: '',
				description: 'New public HTTPS address',
			},
		],
	},
	{
		displayName: 'Delivery ID',
		name: 'deliveryId',
		type: 'string',
		required: true,
		default: '',
		displayOptions: show(['resendDelivery']),
		description: 'ID of the delivery to send again',
	},
];
