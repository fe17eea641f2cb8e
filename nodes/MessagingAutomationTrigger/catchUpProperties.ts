import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { DEFAULT_CATCH_UP_HOURS, MAX_CATCH_UP_HOURS } from './settings';

/** Catch Up Missed Messages (run/caughtUp.ts), shown with Group Quick Messages (`groupingOn`). */
export const catchUpProperties = (groupingOn: IDisplayOptions): INodeProperties[] => [
	{
		displayName: 'Catch Up Missed Messages',
		name: 'catchUpMissed',
		type: 'boolean',
		default: true,
		displayOptions: groupingOn,
		description:
			"Whether to also run a person's earlier messages that never reached n8n. They are found when that person writes again 3 minutes or more later, and come as extra items of that run, after the new message; each runs once. Left out: messages you replied to, older than Max Age, or written before the workflow was published. To run missed messages without waiting for the person to write again, add the Messaging Automation Catch-Up node to this workflow.",
	},
	{
		displayName: 'Max Age (Hours)',
		name: 'catchUpHours',
		type: 'number',
		typeOptions: { minValue: 0.1, maxValue: MAX_CATCH_UP_HOURS, numberPrecision: 1 },
		default: DEFAULT_CATCH_UP_HOURS,
		displayOptions: { show: { ...groupingOn.show, catchUpMissed: [true] } },
		description:
			'Missed messages older than this are left out, here and by the Catch-Up node in this workflow: a bot that answers hours late may do more harm than good',
	},
];
