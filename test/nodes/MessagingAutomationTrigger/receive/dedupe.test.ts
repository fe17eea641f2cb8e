import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	isDuplicateEvent,
	MAX_DEDUPE_WINDOW,
	REPLAY_GUARD_MS,
	RETENTION_MS,
	settleEvent,
	trimWindow,
} from '../../../../nodes/MessagingAutomationTrigger/receive/dedupe';
import { TriggerState, type RecentEvent } from '../../../../nodes/MessagingAutomationTrigger/state';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
/** The attempt's `webhook-timestamp`. */
const SENT = NOW - 2000;
let scopes = 0;
/** A scope of its own per test: claims live in this process's memory for the whole file. */
const freshScope = () => `test-scope-${++scopes}`;

describe('isDuplicateEvent', () => {
	it('records new ids and recognises repeats', () => {
		const data: IDataObject = {};
		const state = new TriggerState(data);
		const scope = freshScope();
		expect(isDuplicateEvent(scope, state, 'evt_a', SENT, 3, NOW)).toBe(false);
		expect(isDuplicateEvent(scope, state, 'evt_a', SENT, 3, NOW + 1)).toBe(true);
		expect(data.recentEvents).toEqual([['evt_a', NOW, SENT]]);
	});

	it('catches a copy that static data lost (a concurrent save overwrote it) within this process', () => {
		const scope = freshScope();
		const loaded = () => new TriggerState({}); // each request loads the window before the other saved
		expect(isDuplicateEvent(scope, loaded(), 'evt_race', SENT, 10, NOW)).toBe(false);
		expect(isDuplicateEvent(scope, loaded(), 'evt_race', SENT, 10, NOW)).toBe(true);
	});

	it('catches a copy that only static data knows (after a restart: a scope with no claims)', () => {
		const state = new TriggerState({ recentEvents: [['evt_old', NOW - 1_000]] });
		expect(isDuplicateEvent(freshScope(), state, 'evt_old', SENT, 10, NOW)).toBe(true);
	});

	it('keeps scopes apart (test and production URLs, two workflows)', () => {
		expect(isDuplicateEvent(freshScope(), new TriggerState({}), 'evt_shared', SENT, 10, NOW)).toBe(
			false,
		);
		expect(isDuplicateEvent(freshScope(), new TriggerState({}), 'evt_shared', SENT, 10, NOW)).toBe(
			false,
		);
	});

	it('forgets an id after the retention, in memory and in static data', () => {
		const scope = freshScope();
		const data: IDataObject = {};
		expect(isDuplicateEvent(scope, new TriggerState(data), 'evt_late', SENT, 10, NOW)).toBe(false);
		expect(
			isDuplicateEvent(scope, new TriggerState(data), 'evt_late', SENT, 10, NOW + RETENTION_MS + 1),
		).toBe(false);
	});

	it('still knows a replay inside the signature tolerance after more newer events than the window holds', () => {
		const scope = freshScope();
		const data: IDataObject = {};
		isDuplicateEvent(scope, new TriggerState(data), 'evt_first', SENT, 3, NOW);
		for (let index = 0; index < 50; index++)
			isDuplicateEvent(scope, new TriggerState(data), `evt_${index}`, SENT, 3, NOW + index);
		expect(
			isDuplicateEvent(freshScope(), new TriggerState(data), 'evt_first', SENT, 3, NOW + 60_000),
		).toBe(true);
	});

	it('reads the id list of earlier versions as seen now', () => {
		const state = new TriggerState({ recentEventIds: ['evt_legacy'] });
		expect(isDuplicateEvent(freshScope(), state, 'evt_legacy', SENT, 10, NOW)).toBe(true);
		expect(isDuplicateEvent(freshScope(), state, 'evt_new', SENT, 10, NOW)).toBe(false);
		expect(state.recentEvents(NOW)).toEqual([
			['evt_legacy', NOW],
			['evt_new', NOW, SENT],
		]);
	});

	it('handles a retry of an event handed to n8n anew (n8n may have failed to record its run), while copies sent sooner than the service retries are copies', () => {
		const scope = freshScope();
		const data: IDataObject = {};
		expect(isDuplicateEvent(scope, new TriggerState(data), 'evt_run', SENT, 10, NOW)).toBe(false);
		expect(isDuplicateEvent(scope, new TriggerState(data), 'evt_run', SENT, 10, NOW + 5)).toBe(
			true,
		);
		expect(
			isDuplicateEvent(scope, new TriggerState(data), 'evt_run', SENT - 1000, 10, NOW + 5),
		).toBe(true);
		// Sent again sooner than the service retries (23 s): a copy the service sent close behind it.
		expect(
			isDuplicateEvent(scope, new TriggerState(data), 'evt_run', SENT + 23_000, 10, NOW + 23_000),
		).toBe(true);
		const retry = SENT + 30_000;
		expect(
			isDuplicateEvent(scope, new TriggerState(data), 'evt_run', retry, 10, NOW + 30_000),
		).toBe(false);
		// After a restart (memory gone) static data alone says the same.
		expect(
			isDuplicateEvent(freshScope(), new TriggerState(data), 'evt_run', retry, 10, NOW + 30_001),
		).toBe(true);
		expect(data.recentEvents).toEqual([['evt_run', NOW + 30_000, retry]]);
	});

	it('takes every later attempt of an event settled here without a run for a copy', () => {
		const scope = freshScope();
		const data: IDataObject = {};
		expect(isDuplicateEvent(scope, new TriggerState(data), 'evt_none', SENT, 10, NOW)).toBe(false);
		settleEvent(scope, new TriggerState(data), 'evt_none');
		expect(data.recentEvents).toEqual([['evt_none', NOW]]);
		const retry = SENT + 30_000;
		expect(
			isDuplicateEvent(scope, new TriggerState(data), 'evt_none', retry, 10, NOW + 30_000),
		).toBe(true);
		expect(
			isDuplicateEvent(freshScope(), new TriggerState(data), 'evt_none', retry, 10, NOW + 30_000),
		).toBe(true);
	});
});

describe('trimWindow', () => {
	const events = (count: number, at: (index: number) => number): RecentEvent[] =>
		Array.from({ length: count }, (_, index) => [`evt_${index}`, at(index)]);

	it('keeps the newest `size` once they are older than the replay guard', () => {
		const old = NOW - REPLAY_GUARD_MS - 1_000;
		expect(
			trimWindow(
				events(5, (index) => old + index),
				3,
				NOW,
			).map(([id]) => id),
		).toEqual(['evt_2', 'evt_3', 'evt_4']);
	});

	it('keeps everything younger than the replay guard, up to a hard cap', () => {
		expect(
			trimWindow(
				events(5, () => NOW - 1_000),
				3,
				NOW,
			),
		).toHaveLength(5);
		expect(
			trimWindow(
				events(2 * MAX_DEDUPE_WINDOW + 10, () => NOW),
				1,
				NOW,
			),
		).toHaveLength(2 * MAX_DEDUPE_WINDOW);
	});

	it('drops what is older than the retention and clamps the size to 1..10,000', () => {
		expect(
			trimWindow(
				[
					['evt_gone', NOW - RETENTION_MS - 1],
					['evt_kept', NOW],
				],
				10,
				NOW,
			),
		).toEqual([['evt_kept', NOW]]);
		const old = NOW - REPLAY_GUARD_MS - 1;
		expect(
			trimWindow(
				events(3, () => old),
				0,
				NOW,
			),
		).toEqual([['evt_2', old]]);
		expect(
			trimWindow(
				events(MAX_DEDUPE_WINDOW + 5, () => old),
				1_000_000,
				NOW,
			),
		).toHaveLength(MAX_DEDUPE_WINDOW);
	});
});
