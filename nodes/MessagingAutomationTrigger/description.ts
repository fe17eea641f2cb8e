import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_DEDUPE_WINDOW, MAX_DEDUPE_WINDOW } from './receive/dedupe';
import { catchUpProperties } from './catchUpProperties';

const dashboardOnly = { show: { registration: ['dashboard'] } };
const groupingOn = { show: { groupQuickMessages: [true], events: ['message.received'] } };
const takeoverOn = { show: { humanTakeover: [true], events: ['message.received'] } };

/* The nodes panel lists one trigger entry per event, "On <name>", so the names read as events. */
const EVENT_OPTIONS = [
	{ name: 'Channel Connected', value: 'connection.connected', description: 'A channel connected' },
	{
		name: 'Channel Disconnected',
		value: 'connection.disconnected',
		description: 'A channel needs human action, for example scanning the QR code again',
	},
	{
		name: 'Message Received',
		value: 'message.received',
		description: 'An incoming message in a saved chat',
	},
	{
		name: 'Message Sent',
		value: 'message.sent',
		description: 'A message the account sent in a saved chat',
	},
	{
		name: 'Message Status Changed',
		value: 'message.status',
		description: 'A delivery status change (Business channel only)',
	},
	{
		name: 'Test Event',
		value: 'webhook.test',
		description: 'The test the service sends when an endpoint is created',
	},
];

/** The subtitle: the chosen events by name, not by their API type. */
export const EVENTS_SUBTITLE = `={{ $parameter["events"].map((type) => (${JSON.stringify(
	Object.fromEntries(EVENT_OPTIONS.map((option) => [option.value, option.name])),
)})[type] ?? type).join(", ") }}`;

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
				description:
					'Use an endpoint you created yourself and paste its signing secret; nothing is registered',
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
			"Point the dashboard endpoint at this node's Production URL, and choose its event types there; the Events below only filter what arrives",
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
			"The endpoint's signing secret from the dashboard. A secret pasted without its whsec_ prefix is read as the same key. Every delivery is checked against it; failures get HTTP 401 and start nothing.",
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: ['message.received'],
		options: EVENT_OPTIONS,
		description:
			'Events that start the workflow. Only chats the account saves produce message events.',
	},
	{
		displayName: 'Group Quick Messages',
		name: 'groupQuickMessages',
		type: 'boolean',
		default: false,
		displayOptions: { show: { events: ['message.received'] } },
		description:
			'Whether to start one run for several quick messages of one person ("hi" / "order 4411" / "where is it?"), once they stop writing, instead of one run per message',
	},
	{
		displayName: 'Quiet Window (Seconds)',
		name: 'quietWindowSeconds',
		type: 'number',
		typeOptions: { minValue: 0.1, maxValue: 300, numberPrecision: 1 },
		default: 5,
		displayOptions: groupingOn,
		description:
			'The run starts once the person has written nothing for this long; messages further apart start separate runs. Keep it at 8 or less: above 8, every group of quick messages also leaves an empty execution about 30 seconds later (it needs no action). Nothing is lost if n8n restarts while a run waits.',
	},
	{
		displayName: 'Longest Wait (Seconds)',
		name: 'longestWaitSeconds',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 3600 },
		default: 30,
		displayOptions: groupingOn,
		description:
			'A person who keeps typing still gets an answer: the run starts this long after their first message at the latest, and later messages start the next run',
	},
	...catchUpProperties(groupingOn),
	{
		displayName: 'Include Conversation History',
		name: 'includeHistory',
		type: 'boolean',
		default: false,
		displayOptions: { show: { events: ['message.received', 'message.sent'] } },
		description:
			"Whether to add the conversation's earlier messages to each run (history, history_text), for example for an AI Agent's prompt. Needs a key that may read saved messages.",
	},
	{
		displayName: 'History Messages',
		name: 'historyMessages',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 50 },
		default: 10,
		displayOptions: {
			show: { includeHistory: [true], events: ['message.received', 'message.sent'] },
		},
		description: 'How many earlier messages of the conversation to include, newest last',
	},
	{
		displayName: 'Human Takeover',
		name: 'humanTakeover',
		type: 'boolean',
		default: false,
		displayOptions: { show: { events: ['message.received'] } },
		description:
			"Whether a person on your side can pause the bot in one conversation by sending the pause command, and a customer can ask for a person with a hand-over word. The node gets a second output: a paused conversation's messages come out of Paused Chats instead of Bot. Needs a key that may read saved messages.",
	},
	{
		displayName: 'Pause Command',
		name: 'pauseCommand',
		type: 'string',
		default: '/bot off',
		displayOptions: takeoverOn,
		description:
			'Send exactly this in a conversation, from the phone or through the API, to pause the bot there. Case and surrounding spaces are ignored; a message with other text around it does not count, nor does the customer writing it.',
	},
	{
		displayName: 'Resume Command',
		name: 'resumeCommand',
		type: 'string',
		default: '/bot on',
		displayOptions: takeoverOn,
		description: 'Send exactly this in the conversation to let the bot answer again',
	},
	{
		displayName: 'Hand-Over Words',
		name: 'handoverWords',
		type: 'string',
		default: '',
		placeholder: 'e.g. human, agent, representative',
		displayOptions: takeoverOn,
		description:
			'Words or phrases, separated by commas, that pause the conversation when the customer writes one of them (whole words, any case), from that message on. Empty: customers cannot pause the bot.',
	},
	{
		displayName: 'Resume After (Hours)',
		name: 'resumeAfterHours',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 1 },
		default: 12,
		displayOptions: takeoverOn,
		description:
			'The bot answers again this long after the pause command or the hand-over message. 0: only the resume command ends a pause.',
	},
	{
		displayName: 'Pass Answers to Send and Wait',
		name: 'answersToSendAndWait',
		type: 'boolean',
		default: false,
		displayOptions: { show: { events: ['message.received'] } },
		description:
			'Whether a chat reply to a waiting "Send a message and wait for response" question with Answer in Chat on (for example "1" under "Reply 1 to Approve") continues that workflow instead of starting this one. Other messages start this workflow as usual. Publishing checks that n8n can reach its own webhook URL. Needs a key that may read saved messages.',
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
				description:
					'Only events of these channels. Events without a channel (the test event) always pass.',
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
					"Whether to drop messages the account sent itself, so the workflow's own replies cannot start it again",
			},
			{
				displayName: 'Statuses',
				name: 'statusValues',
				type: 'multiOptions',
				default: [],
				displayOptions: { show: { '/events': ['message.status'] } },
				options: [
					{ name: 'Delivered', value: 'delivered' },
					{ name: 'Failed', value: 'failed' },
					{ name: 'Read', value: 'read' },
					{ name: 'Sent', value: 'sent' },
				],
				description: 'Only status changes to these statuses. None chosen: all.',
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
				displayName: 'Deduplicate Events',
				name: 'deduplicate',
				type: 'boolean',
				default: true,
				description:
					'Whether to ignore an event that arrives a second time (the service may send one event twice, even after it ran). Keep it on.',
			},
			{
				displayName: 'Download Attachments',
				name: 'downloadAttachments',
				type: 'boolean',
				default: false,
				description:
					'Whether to download the file of a received message into binary data when the event marks it downloadable. QR channel only: Business files cannot be downloaded through the API.',
			},
			{
				displayName: 'Downloaded File Field',
				name: 'binaryPropertyName',
				type: 'string',
				default: 'data',
				description: 'Name of the output binary field that receives a downloaded attachment',
			},
			{
				displayName: 'Duplicate Window',
				name: 'dedupeWindow',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_DEDUPE_WINDOW },
				default: DEFAULT_DEDUPE_WINDOW,
				description: 'How many recent event IDs to remember when deduplicating',
			},
		],
	},
];
