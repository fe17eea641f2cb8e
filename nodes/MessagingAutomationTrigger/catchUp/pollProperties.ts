import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_CATCH_UP_HOURS, MAX_CATCH_UP_HOURS } from '../settings';

/** The Catch-Up node's fields; n8n adds Poll Times itself (`polling: true`). */
export const catchUpPollProperties: INodeProperties[] = [
	{
		displayName:
			'Works beside a Messaging Automation Trigger with Group Quick Messages on, in the same workflow: connect both to the same next node. It runs what the trigger never got: the first message of a chat whose event the service lost, and what was written while the workflow was inactive. Each message runs once, whichever node runs it.',
		name: 'notice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Max Age of Missed Messages (Hours)',
		name: 'catchUpHours',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: MAX_CATCH_UP_HOURS, numberPrecision: 1 },
		default: DEFAULT_CATCH_UP_HOURS,
		description:
			'Missed messages older than this are not run, and the log says how many were left: a bot that answers hours late may do more harm than good. 0 turns catching up off.',
	},
	{
		displayName: 'Quiet Window (Seconds)',
		name: 'quietWindowSeconds',
		type: 'number',
		typeOptions: { minValue: 0.1, maxValue: 300, numberPrecision: 1 },
		default: 5,
		description:
			"The same as the trigger's Quiet Window, so a missed burst is grouped as the trigger would have grouped it",
	},
	{
		displayName: 'Longest Wait (Seconds)',
		name: 'longestWaitSeconds',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 3600 },
		default: 30,
		description: "The same as the trigger's Longest Wait",
	},
];
