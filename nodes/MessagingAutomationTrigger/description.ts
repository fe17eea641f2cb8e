import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_DEDUPE_WINDOW, MAX_DEDUPE_WINDOW } from './dedupe';

const dashboardOnly = { show: { registration: ['dashboard'] } };

export const triggerProperties: INodeProperties[] = [
	{
		displayName: 'Registration',
		name: 'registration',
		type: 'options',
		noDataExpression: true,
		default: 'auto',
		options: [
			{
				name: 'Endpoint Created in the Dashboard',
				value: 'dashboard',
				description: 'Use an endpoint you created yourself and paste its signing secret; nothing is registered',
			},
			{
				name: 'Register Automatically',
				value: 'auto',
				description:
					'Create the endpoint when the workflow is activated (or a test starts) and delete it when deactivated. Needs a key with the messenger.webhooks:manage scope.',
			},
		],
	},
	{
		displayName:
			'Point the dashboard endpoint at this node\'s Production URL, and choose its event types there; the Events below only filter what arrives',
		name: 'dashboardNotice',
		type: 'notice',
		default: '',
		displayOptions: dashboardOnly,
	},
	{
		displayName: 'Signing Secret',
		name: 'signingSecret',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		placeholder: 'whsec_...',
		displayOptions: dashboardOnly,
		description:
			'The endpoint\'s signing secret from the dashboard. A secret pasted without its whsec_ prefix is read as the same key. Every delivery is checked against it; failures get HTTP 401 and start nothing.',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: ['message.received'],
		options: [
			{ name: 'Connection Connected', value: 'connection.connected', description: 'A channel connected' },
			{ name: 'Connection Disconnected', value: 'connection.disconnected', description: 'A channel needs human action, for example scanning the QR code again' },
			{ name: 'Message Received', value: 'message.received', description: 'An incoming message in a saved chat' },
			{ name: 'Message Sent', value: 'message.sent', description: 'A message the account sent in a saved chat' },
			{ name: 'Message Status', value: 'message.status', description: 'A delivery status change (Business channel only)' },
			{ name: 'Webhook Test', value: 'webhook.test', description: 'The test event the service sends when an endpoint is created' },
		],
		description: 'Events that start the workflow. Only chats the account saves produce message events.',
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Channels',
				name: 'channels',
				type: 'multiOptions',
				default: [],
				options: [
					{ name: 'Business', value: 'business' },
					{ name: 'QR (Personal Number)', value: 'qr' },
				],
				description: 'Only events of these channels. Events without a channel (webhook.test) always pass.',
			},
			{
				displayName: 'Chat Type',
				name: 'chatType',
				type: 'options',
				default: 'oneToOne',
				options: [
					{ name: 'Group', value: 'group' },
					{ name: 'One-to-One', value: 'oneToOne' },
				],
				description: 'Only messages from this kind of chat',
			},
			{
				displayName: 'Ignore Own Messages',
				name: 'ignoreOwnMessages',
				type: 'boolean',
				default: true,
				description:
					'Whether to drop messages the account sent itself (from_me), so the workflow\'s own replies cannot start it again',
			},
			{
				displayName: 'Status Values',
				name: 'statusValues',
				type: 'string',
				default: '',
				placeholder: 'delivered, read, failed',
				description: 'Comma-separated statuses that message.status events must have. Empty: all.',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Attachment Binary Property',
				name: 'binaryPropertyName',
				type: 'string',
				default: 'data',
				description: 'Binary property that receives a downloaded attachment',
			},
			{
				displayName: 'Download Attachments',
				name: 'downloadAttachments',
				type: 'boolean',
				default: false,
				description:
					'Whether to download the file of a received message into binary data (via get_attachment_link) when the event marks it download_available. QR channel only: Business file downloads are not available through the API.',
			},
			{
				displayName: 'Duplicate Window',
				name: 'dedupeWindow',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_DEDUPE_WINDOW },
				default: DEFAULT_DEDUPE_WINDOW,
				description: 'How many recent event IDs to remember for skipping duplicates',
			},
			{
				displayName: 'Skip Duplicate Events',
				name: 'deduplicate',
				type: 'boolean',
				default: true,
				description:
					'Whether to start only one execution per event ID. Deliveries are at-least-once, so the same event can arrive twice.',
			},
		],
	},
];
