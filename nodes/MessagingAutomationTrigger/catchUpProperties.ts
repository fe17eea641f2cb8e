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
			"Whether to run a person's messages the service saved but never delivered. When they write again, their earlier messages that never started a run, and that no message of yours followed, run first, each burst once, marked caught_up with their age. Never a message written before the workflow was activated.",
	},
	{
		displayName: 'Catch Up Messages Up To (Hours)',
		name: 'catchUpHours',
		type: 'number',
		typeOptions: { minValue: 0.1, maxValue: MAX_CATCH_UP_HOURS, numberPrecision: 1 },
		default: DEFAULT_CATCH_UP_HOURS,
		displayOptions: { show: { ...groupingOn.show, catchUpMissed: [true] } },
		description:
			'Older missed messages are left: a bot that answers hours late may do more harm than good',
	},
];
