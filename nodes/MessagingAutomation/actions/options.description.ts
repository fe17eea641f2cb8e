import { SEND_AND_WAIT_OPERATION, type INodeProperties } from 'n8n-workflow';

/** Options shared by every operation: idempotency, pacing and time-outs. */
export const generalOptions: INodeProperties[] = [
	{
		displayName: 'Idempotency Key',
		name: 'idempotencyKey',
		type: 'string',
		default: '',
		description:
			"Names this action so that retries and reruns never act twice. Leave empty to derive it from the trigger event's ID (or to generate one per item). 8-128 characters: letters, digits, '.', '_', ':' and '-'.",
	},
	{
		displayName: 'Max Rate-Limit Wait',
		name: 'rateLimitWaitSeconds',
		type: 'number',
		default: 60,
		typeOptions: { minValue: 0 },
		description:
			'The longest wait, in seconds, that the node sits out before retrying a rate-limited call with the same idempotency key. A longer wait fails the item with a rate-limit error instead.',
	},
	{
		displayName: 'Rate Limit Budget',
		name: 'rateLimitBudget',
		type: 'fixedCollection',
		default: {},
		description:
			'How many calls this node may make per window. Lower the numbers when other workflows use the same API key at the same time.',
		options: [
			{
				displayName: 'Budget',
				name: 'budget',
				values: [
					{
						displayName: 'QR Sends per Window',
						name: 'qrSend',
						type: 'number',
						default: 5,
						typeOptions: { minValue: 1 },
						description:
							'Sends from the personal (QR) number; the service allows 5 per minute and 50 per day',
					},
					{
						displayName: 'Read Calls per Window',
						name: 'read',
						type: 'number',
						default: 600,
						typeOptions: { minValue: 1 },
						description: 'The service allows 600 read calls per minute per key',
					},
					{
						displayName: 'Window (Seconds)',
						name: 'windowSeconds',
						type: 'number',
						default: 60,
						typeOptions: { minValue: 0.01, numberPrecision: 2 },
						description:
							'Length of the sliding window. Keep 60 for the real service; a sandbox whose clock runs faster needs a shorter one.',
					},
					{
						displayName: 'Write Calls per Window',
						name: 'write',
						type: 'number',
						default: 120,
						typeOptions: { minValue: 1 },
						description: 'The service allows 120 write calls per minute per key',
					},
				],
			},
		],
	},
	{
		displayName: 'Timeout (Seconds)',
		name: 'timeoutSeconds',
		type: 'number',
		default: 30,
		typeOptions: { minValue: 0.1, numberPrecision: 1 },
		description:
			'How long one request may take, answer included, before it is retried with the same idempotency key',
	},
];

/** Send and Wait has Options of its own (n8n's wait limit among them), these included. */
export const optionsDescription: INodeProperties[] = [
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { hide: { operation: [SEND_AND_WAIT_OPERATION] } },
		options: generalOptions,
	},
];
