import type { IExecuteFunctions, IPollFunctions } from 'n8n-workflow';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const EVERY: Record<string, number> = {
	everyMinute: MINUTE,
	everyHour: HOUR,
	everyDay: DAY,
	everyWeek: 7 * DAY,
	everyMonth: 31 * DAY,
};

/** How long one Poll Times item may leave between two polls; a custom cron expression a day. */
function spanOf(item: Record<string, unknown>): number {
	if (item.mode === 'everyX') {
		const value = typeof item.value === 'number' && item.value > 0 ? item.value : 1;
		return value * (item.unit === 'hours' ? HOUR : MINUTE);
	}
	return EVERY[String(item.mode)] ?? DAY;
}

/**
 * The longest n8n leaves between two polls of this node, by its Poll Times (the parameter n8n adds
 * to every polling node): the shortest of its items' spans, since n8n polls at each of them. Read
 * from the node's settings, the same in a test run as in the active poll, never measured.
 */
export function pollSpanMs(context: IExecuteFunctions | IPollFunctions): number {
	const times = context.getNodeParameter('pollTimes', {}) as { item?: unknown };
	const items = Array.isArray(times.item) ? (times.item as Array<Record<string, unknown>>) : [];
	return items.length > 0 ? Math.min(...items.map(spanOf)) : MINUTE;
}
