import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { DEFAULT_DEDUPE_WINDOW } from './receive/dedupe';
import { parseStatusList, type ChatTypeFilter, type EventFilters } from './receive/eventFilter';
import type { TakeoverRules } from '../shared/conversation/takeover';
import type { TurnSettings } from './hold/turn';
import { hasPeopleOutput } from './run/takeoverOutput';

export interface TriggerSettings {
	registration: 'auto' | 'dashboard';
	eventTypes: string[];
	filters: EventFilters;
	deduplicate: boolean;
	dedupeWindow: number;
	/** Pass Answers to Send and Wait, for Message Received only. */
	turn: TurnSettings;
	/** Catch Up Missed Messages: how old a missed message may be (ms); 0: off, as without grouping. */
	catchUpMs: number;
}

/** Catch Up Missed Messages: how old a missed message may be, by default and at most (hours). */
export const DEFAULT_CATCH_UP_HOURS = 1;
export const MAX_CATCH_UP_HOURS = 24;

const seconds = (value: unknown, fallback: number) =>
	(typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback) * 1000;

const HOUR_MS = 3_600_000;

/** Comma-separated text from the editor; an expression may give a list. */
const wordList = (value: unknown): string[] =>
	(Array.isArray(value) ? value.map(String) : String(value ?? '').split(','))
		.map((word) => word.trim())
		.filter((word) => word !== '');

/** Human Takeover's rules, for Message Received only (as the node's outputs are: hasPeopleOutput). */
function takeoverRules(
	context: IHookFunctions | IWebhookFunctions,
	eventTypes: readonly string[],
): TakeoverRules | undefined {
	if (!hasPeopleOutput(context.getNodeParameter('humanTakeover', false), eventTypes))
		return undefined;
	const hours = Number(context.getNodeParameter('resumeAfterHours', 12));
	return {
		pauseCommand: String(context.getNodeParameter('pauseCommand', '/bot off')),
		resumeCommand: String(context.getNodeParameter('resumeCommand', '/bot on')),
		handoverWords: wordList(context.getNodeParameter('handoverWords', '')),
		resumeAfterMs: Number.isFinite(hours) && hours > 0 ? hours * HOUR_MS : 0,
	};
}

function turnSettings(
	context: IHookFunctions | IWebhookFunctions,
	eventTypes: readonly string[],
): TurnSettings {
	const grouping = context.getNodeParameter('groupQuickMessages', false) === true;
	const history = context.getNodeParameter('includeHistory', false) === true;
	return {
		grouping: grouping
			? {
					quietMs: seconds(context.getNodeParameter('quietWindowSeconds', 5), 5),
					longestMs: seconds(context.getNodeParameter('longestWaitSeconds', 30), 30),
				}
			: undefined,
		historyCount: history
			? Math.max(1, Math.floor(Number(context.getNodeParameter('historyMessages', 10)) || 10))
			: 0,
		takeover: takeoverRules(context, eventTypes),
		answers:
			eventTypes.includes('message.received') &&
			context.getNodeParameter('answersToSendAndWait', false) === true,
	};
}

/** Only grouped bursts catch up: their read is the one that shows what was missed. */
function catchUpMs(context: IHookFunctions | IWebhookFunctions): number {
	if (context.getNodeParameter('groupQuickMessages', false) !== true) return 0;
	if (context.getNodeParameter('catchUpMissed', true) !== true) return 0;
	const hours = Number(context.getNodeParameter('catchUpHours', DEFAULT_CATCH_UP_HOURS));
	return Number.isFinite(hours) && hours > 0
		? Math.min(hours, MAX_CATCH_UP_HOURS) * HOUR_MS
		: DEFAULT_CATCH_UP_HOURS * HOUR_MS;
}

const strings = (value: unknown): string[] =>
	Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

/** The node's parameters, typed once for the hooks and the webhook handler. */
export function readSettings(context: IHookFunctions | IWebhookFunctions): TriggerSettings {
	const filters = context.getNodeParameter('filters', {}) as IDataObject;
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const eventTypes = [...new Set(strings(context.getNodeParameter('events', [])))].sort();
	return {
		registration:
			context.getNodeParameter('registration', 'auto') === 'dashboard' ? 'dashboard' : 'auto',
		eventTypes,
		filters: {
			eventTypes,
			channels: strings(filters.channels),
			chatType: filters.chatType as ChatTypeFilter | undefined,
			ignoreOwnMessages: filters.ignoreOwnMessages === true,
			// A list from the editor; an expression may still give comma-separated text.
			statusValues: Array.isArray(filters.statusValues)
				? strings(filters.statusValues)
				: parseStatusList(String(filters.statusValues ?? '')),
		},
		deduplicate: options.deduplicate !== false,
		dedupeWindow: Number(options.dedupeWindow ?? DEFAULT_DEDUPE_WINDOW),
		turn: turnSettings(context, eventTypes),
		catchUpMs: catchUpMs(context),
	};
}
