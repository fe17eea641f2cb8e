import type { IExecuteFunctions, IPollFunctions } from 'n8n-workflow';

import type { BurstRules } from '../../shared/conversation/bursts';
import { DEFAULT_CATCH_UP_HOURS, MAX_CATCH_UP_HOURS } from '../settings';

export interface CatchUpSettings {
	/** The trigger's Group Quick Messages rules, as the user copied them here. */
	grouping: BurstRules;
	/** How old a missed burst may be (ms); 0: off. */
	maxAgeMs: number;
}

const positive = (value: unknown, fallback: number) =>
	typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;

/** A parameter of the poll (its own context) or of a test run (the step's, item 0). */
function parameter(context: IPollFunctions | IExecuteFunctions, name: string, fallback: number) {
	const value =
		'getInputData' in context
			? context.getNodeParameter(name, 0, fallback)
			: context.getNodeParameter(name, fallback);
	return Number(value);
}

export function catchUpSettings(context: IPollFunctions | IExecuteFunctions): CatchUpSettings {
	const hours = parameter(context, 'catchUpHours', DEFAULT_CATCH_UP_HOURS);
	return {
		grouping: {
			quietMs: positive(parameter(context, 'quietWindowSeconds', 5), 5) * 1000,
			longestMs: positive(parameter(context, 'longestWaitSeconds', 30), 30) * 1000,
		},
		maxAgeMs:
			Number.isFinite(hours) && hours > 0 ? Math.min(hours, MAX_CATCH_UP_HOURS) * 3_600_000 : 0,
	};
}
