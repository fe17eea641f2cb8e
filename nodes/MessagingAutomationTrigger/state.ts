import type { IDataObject } from 'n8n-workflow';

import { isRecord } from '../shared/guards';

/**
 * Layout of the node's static data (`getWorkflowStaticData('node')`):
 *
 *   endpoints       { [webhook URL]: endpoint we registered for that URL (`parked`: kept, paused,
 *                   through a deactivation for the held deliveries it handed back; parkedEndpoint.ts) }
 *   orphans         ids we created but could not delete yet (retried at the next activation)
 *   activatedAt     when the production trigger last registered (ms since the epoch): the floor of
 *                   what it catches up (run/caughtUp.ts), never a message written before
 *   recentEvents    dedupe window, oldest first: [event id, first seen (ms)], plus the attempt's
 *                   send time while its run was only handed to n8n (dedupe.ts)
 *   firstHandBacks  [event id, send time of its first delivery handed back (503, service ms),
 *                   when (ms)] (handBacks.ts)
 *
 * Keyed by URL because the URL is what tells test from production in every hook: n8n deletes a
 * test endpoint in mode `internal`, so the execution mode cannot tell them apart, but the hook's
 * webhook URL always can. n8n also keeps test static data apart (a test starts from an empty copy
 * that is never saved), so the two never see each other's entries. Changes are written as whole
 * top-level values: n8n only notices assignments on the object it handed out.
 */
export interface RegisteredEndpoint {
	id: string;
	url: string;
	secret: string;
	eventTypes: string[];
	/** Registered for the test URL (created in mode `manual`). */
	test: boolean;
	/** Paused at deactivation so the service keeps its retries; the next activation resumes it. */
	parked?: boolean;
}

function isEndpoint(value: unknown): value is RegisteredEndpoint {
	const candidate = value as Partial<RegisteredEndpoint> | undefined;
	return (
		typeof candidate?.id === 'string' &&
		typeof candidate.url === 'string' &&
		typeof candidate.secret === 'string' &&
		Array.isArray(candidate.eventTypes) &&
		typeof candidate.test === 'boolean'
	);
}

/**
 * An event id and when it was first seen (ms since the epoch); while its run was only handed to
 * n8n, also the `webhook-timestamp` (ms) of the attempt that handed it over.
 */
export type RecentEvent = [string, number] | [string, number, number];

function isRecentEvent(value: unknown): value is RecentEvent {
	return (
		Array.isArray(value) &&
		(value.length === 2 || (value.length === 3 && typeof value[2] === 'number')) &&
		typeof value[0] === 'string' &&
		typeof value[1] === 'number'
	);
}

/** An event id, the send time (service ms) of its first delivery this node handed back, and when (ms). */
export type HandBack = [string, number, number];

function isHandBack(value: unknown): value is HandBack {
	return (
		Array.isArray(value) &&
		value.length === 3 &&
		typeof value[0] === 'string' &&
		typeof value[1] === 'number' &&
		typeof value[2] === 'number'
	);
}

function stringList(value: unknown): string[] {
	return Array.isArray(value)
		? value.filter((item): item is string => typeof item === 'string')
		: [];
}

export class TriggerState {
	constructor(private readonly data: IDataObject) {}

	private endpointMap(): IDataObject {
		const endpoints = this.data.endpoints;
		return isRecord(endpoints) ? (endpoints as IDataObject) : {};
	}

	endpoint(url: string): RegisteredEndpoint | undefined {
		const stored = this.endpointMap()[url];
		return isEndpoint(stored) ? stored : undefined;
	}

	endpoints(): RegisteredEndpoint[] {
		return Object.values(this.endpointMap()).filter(isEndpoint);
	}

	setEndpoint(url: string, endpoint: RegisteredEndpoint | undefined): void {
		const endpoints = { ...this.endpointMap() };
		if (endpoint) endpoints[url] = { ...endpoint };
		else delete endpoints[url];
		this.data.endpoints = endpoints;
	}

	orphans(): string[] {
		return stringList(this.data.orphans);
	}

	setOrphans(ids: Iterable<string>): void {
		this.data.orphans = [...new Set(ids)];
	}

	/** When the production trigger last registered; undefined when not since this version. */
	activatedAt(): number | undefined {
		const at = this.data.activatedAt;
		return typeof at === 'number' && Number.isFinite(at) ? at : undefined;
	}

	setActivatedAt(at: number): void {
		this.data.activatedAt = at;
	}

	/** The window; ids stored by earlier versions without a time count as seen `now`. */
	recentEvents(now: number): RecentEvent[] {
		const events = Array.isArray(this.data.recentEvents)
			? this.data.recentEvents.filter(isRecentEvent)
			: [];
		const legacy = stringList(this.data.recentEventIds).map((id): RecentEvent => [id, now]);
		return [...legacy, ...events];
	}

	/** Events whose deliveries this node handed back: id, the first one's send time, when (ms). */
	handBacks(): HandBack[] {
		return Array.isArray(this.data.firstHandBacks)
			? this.data.firstHandBacks.filter(isHandBack)
			: [];
	}

	setHandBacks(entries: HandBack[]): void {
		this.data.firstHandBacks = entries;
	}

	setRecentEvents(events: RecentEvent[]): void {
		this.data.recentEvents = events;
		if ('recentEventIds' in this.data) delete this.data.recentEventIds;
	}
}
