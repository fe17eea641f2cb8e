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
			"Whether to also run a person's earlier messages that the service saved but never sent to n8n. They are found when the same person writes again, 3 minutes or more later, and come as extra items of that execution, after the new message, with caught_up: {reason, age_seconds}. Each runs once. Left out: messages you replied to, older than the limit below, or written before the workflow was last activated (published). For a lost message the person never follows with another, and for messages written while the workflow was inactive, add the Messaging Automation Catch-Up node to this workflow.",
	},
	{
		displayName: 'Max Age (Hours)',
		name: 'catchUpHours',
		type: 'number',
		typeOptions: { minValue: 0.1, maxValue: MAX_CATCH_UP_HOURS, numberPrecision: 1 },
		default: DEFAULT_CATCH_UP_HOURS,
		displayOptions: { show: { ...groupingOn.show, catchUpMissed: [true] } },
		description:
			'Missed messages older than this are left out, here and by the Catch-Up node beside this trigger: a bot that answers hours late may do more harm than good',
	},
];
