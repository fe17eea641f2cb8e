import {
	SEND_AND_WAIT_OPERATION,
	type INodeProperties,
	type IWebhookDescription,
} from 'n8n-workflow';

import { generalOptions } from '../options.description';
import { businessWindowProperties } from './businessWindow';
import { chatAnswerProperties } from './chatAnswers';
import { recipientProperties } from './recipient';

/*
 * Message › Send and Wait for Response. Parameter names follow n8n's own nodes (message,
 * responseType, approvalOptions, options.limitWaitTime), so n8n's tooling, such as the "Human
 * review" tool it builds for AI agents, recognises the operation.
 */

const show = { resource: ['message'], operation: [SEND_AND_WAIT_OPERATION] };
const when = (responseType: string[]) => ({ show: { ...show, responseType } });

/** The links resume the execution that is waiting; n8n routes them to `webhook()`. */
export const sendAndWaitWebhooks: IWebhookDescription[] = ['GET', 'POST'].map((httpMethod) => ({
	name: 'default',
	httpMethod,
	responseMode: 'onReceived',
	responseData: '',
	path: '={{ $nodeId }}',
	restartWebhook: true,
	isFullPath: true,
}));

const limitWaitTime: INodeProperties = {
	displayName: 'Limit Wait Time',
	name: 'limitWaitTime',
	type: 'fixedCollection',
	description: 'Whether to stop waiting after a while; the node then outputs a timed-out result',
	default: { values: { limitType: 'afterTimeInterval', resumeAmount: 45, resumeUnit: 'minutes' } },
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: [
				{
					displayName: 'Limit Type',
					name: 'limitType',
					type: 'options',
					default: 'afterTimeInterval',
					options: [
						{
							name: 'After Time Interval',
							value: 'afterTimeInterval',
							description: 'Wait for a set time',
						},
						{
							name: 'At Specified Time',
							value: 'atSpecifiedTime',
							description: 'Wait until a date and time',
						},
					],
				},
				{
					displayName: 'Amount',
					name: 'resumeAmount',
					type: 'number',
					default: 1,
					typeOptions: { minValue: 0, numberPrecision: 2 },
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
				},
				{
					displayName: 'Unit',
					name: 'resumeUnit',
					type: 'options',
					default: 'hours',
					options: [
						{ name: 'Minutes', value: 'minutes' },
						{ name: 'Hours', value: 'hours' },
						{ name: 'Days', value: 'days' },
					],
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
				},
				{
					displayName: 'Max Date and Time',
					name: 'maxDateAndTime',
					type: 'dateTime',
					default: '',
					displayOptions: { show: { limitType: ['atSpecifiedTime'] } },
				},
			],
		},
	],
};

const formOptions: INodeProperties[] = [
	{
		displayName: 'Message Button Label',
		name: 'messageButtonLabel',
		type: 'string',
		default: 'Respond',
		description: 'The words before the link in the message',
	},
	{
		displayName: 'Response Form Button Label',
		name: 'responseFormButtonLabel',
		type: 'string',
		default: 'Submit',
	},
	{
		displayName: 'Response Form Description',
		name: 'responseFormDescription',
		type: 'string',
		default: '',
		description: 'Shown under the title; the message itself when empty',
	},
	{
		displayName: 'Response Form Title',
		name: 'responseFormTitle',
		type: 'string',
		default: '',
		description: 'Title of the page the person answers on',
	},
];

const byName = (a: INodeProperties, b: INodeProperties) =>
	a.displayName.localeCompare(b.displayName);

export const sendAndWaitDescription: INodeProperties[] = [
	...recipientProperties(show),
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 4 },
		placeholder: 'e.g. May we refund order 1042?',
		displayOptions: { show },
		description: 'What the person is asked. The links to answer follow it in the same message.',
	},
	{
		displayName: 'Response Type',
		name: 'responseType',
		type: 'options',
		default: 'approval',
		options: [
			{
				name: 'Approval',
				value: 'approval',
				description: 'The person taps a link to approve (or decline)',
			},
			{
				name: 'Free Text',
				value: 'freeText',
				description: 'The person writes an answer on a page',
			},
			{
				name: 'Custom Form',
				value: 'customForm',
				description: 'The person fills in a form you define',
			},
		],
		displayOptions: { show },
	},
	{
		displayName: 'Form Fields',
		name: 'formFields',
		type: 'fixedCollection',
		placeholder: 'Add Form Field',
		default: {},
		typeOptions: { multipleValues: true, sortable: true },
		displayOptions: when(['customForm']),
		options: [
			{
				displayName: 'Values',
				name: 'values',
				values: [
					{
						displayName: 'Field Label',
						name: 'fieldLabel',
						type: 'string',
						default: '',
						placeholder: 'e.g. Your name',
						required: true,
					},
					{
						displayName: 'Field Type',
						name: 'fieldType',
						type: 'options',
						default: 'text',
						options: [
							{ name: 'Date', value: 'date' },
							{ name: 'Dropdown List', value: 'dropdown' },
							{ name: 'Email', value: 'email' },
							{ name: 'Number', value: 'number' },
							{ name: 'Text', value: 'text' },
							{ name: 'Textarea', value: 'textarea' },
						],
					},
					{
						displayName: 'Field Options',
						name: 'fieldOptions',
						type: 'string',
						default: '',
						placeholder: 'e.g. Yes, No, Maybe',
						description: 'The choices of the list, separated by commas',
						displayOptions: { show: { fieldType: ['dropdown'] } },
					},
					{
						displayName: 'Required Field',
						name: 'requiredField',
						type: 'boolean',
						default: false,
						description: 'Whether the person must fill in this field',
					},
				],
			},
		],
	},
	{
		displayName: 'Approval Options',
		name: 'approvalOptions',
		type: 'fixedCollection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: when(['approval']),
		options: [
			{
				displayName: 'Values',
				name: 'values',
				values: [
					{
						displayName: 'Type of Approval',
						name: 'approvalType',
						type: 'options',
						default: 'single',
						options: [
							{ name: 'Approve Only', value: 'single' },
							{ name: 'Approve and Decline', value: 'double' },
						],
					},
					{
						displayName: 'Approve Button Label',
						name: 'approveLabel',
						type: 'string',
						default: 'Approve',
					},
					{
						displayName: 'Decline Button Label',
						name: 'disapproveLabel',
						type: 'string',
						default: 'Decline',
						displayOptions: { show: { approvalType: ['double'] } },
					},
				],
			},
		],
	},
	...chatAnswerProperties(show),
	...businessWindowProperties(show),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: when(['approval']),
		options: [limitWaitTime, ...generalOptions].sort(byName),
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: when(['freeText', 'customForm']),
		options: [limitWaitTime, ...formOptions, ...generalOptions].sort(byName),
	},
];
