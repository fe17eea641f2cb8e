import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	isDuplicateEvent,
	MAX_DEDUPE_WINDOW,
	REPLAY_GUARD_MS,
	RETENTION_MS,
	trimWindow,
} from '../../../nodes/MessagingAutomationTrigger/dedupe';
import { TriggerState, type RecentEvent } from '../../../nodes/MessagingAutomationTrigger/state';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
let scopes = 0;
/** A scope of its own per test: claims live in this process's memory for the whole file. */
const freshScope = () => `test-scope-${++scopes}`;

describe('isDuplicateEvent', () => {
	it('records new ids and recognises repeats', () => {
		const data: IDataObject = {};
		const state = new TriggerState(data);
		const scope = freshScope();
		expect(isDuplicateEvent(scope, state, 'evt_a', 3, NOW)).toBe(false);
		expect(isDuplicateEvent(scope, state, 'evt_a', 3, NOW + 1)).toBe(true);
		expect(data.recentEvents).toEqual([['evt_a', NOW]]);
	});

	it('catches a copy that static data lost (a concurrent save overwrote it) within this process', () => {
		const scope = freshScope();
		const loaded = () => new TriggerState({}); // each request loads the window before the other saved
		expect(isDuplicateEvent(scope, loaded(), 'evt_race', 10, NOW)).toBe(false);
		expect(isDuplicateEvent(scope, loaded(), 'evt_race', 10, NOW)).toBe(true);
	});

	it('catches a copy that only static data knows (after a restart: a scope with no claims)', () => {
		const state = new TriggerState({ recentEvents: [['evt_old', NOW - 1_000]] });
		expect(isDuplicateEvent(freshScope(), state, 'evt_old', 10, NOW)).toBe(true);
	});

	it('keeps scopes apart (test and production URLs, two workflows)', () => {
		expect(isDuplicateEvent(freshScope(), new TriggerState({}), 'evt_shared', 10, NOW)).toBe(false);
		expect(isDuplicateEvent(freshScope(), new TriggerState({}), 'evt_shared', 10, NOW)).toBe(false);
	});

	it('forgets an id after the retention, in memory and in static data', () => {
		const scope = freshScope();
		const data: IDataObject = {};
		expect(isDuplicateEvent(scope, new TriggerState(data), 'evt_late', 10, NOW)).toBe(false);
		expect(
			isDuplicateEvent(scope, new TriggerState(data), 'evt_late', 10, NOW + RETENTION_MS + 1),
		).toBe(false);
	});

	it('still knows a replay inside the signature tolerance after more newer events than the window holds', () => {
		const scope = freshScope();
		const data: IDataObject = {};
		isDuplicateEvent(scope, new TriggerState(data), 'evt_first', 3, NOW);
		for (let index = 0; index < 50; index++)
			isDuplicateEvent(scope, new TriggerState(data), `evt_${index}`, 3, NOW + index);
		expect(
			isDuplicateEvent(freshScope(), new TriggerState(data), 'evt_first', 3, NOW + 60_000),
		).toBe(true);
	});

	it('reads the id list of earlier versions as seen now', () => {
		const state = new TriggerState({ recentEventIds: ['evt_legacy'] });
		expect(isDuplicateEvent(freshScope(), state, 'evt_legacy', 10, NOW)).toBe(true);
		expect(isDuplicateEvent(freshScope(), state, 'evt_new', 10, NOW)).toBe(false);
		expect(state.recentEvents(NOW)).toEqual([
			['evt_legacy', NOW],
			['evt_new', NOW],
		]);
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
