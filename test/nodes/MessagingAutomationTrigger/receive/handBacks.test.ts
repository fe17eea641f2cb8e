import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	firstHandBackOf,
	noteHandBack,
} from '../../../../nodes/MessagingAutomationTrigger/receive/handBacks';
import { TriggerState } from '../../../../nodes/MessagingAutomationTrigger/state';

const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);
const SENT = NOW - 2000;

describe('hand-backs of an event', () => {
	it('keeps the send time of the first delivery handed back, which another process sees in static data', () => {
		const data: IDataObject = {};
		const state = new TriggerState(data);
		expect(firstHandBackOf('scope-a', state, 'evt_1', NOW)).toBeUndefined();
		noteHandBack('scope-a', state, 'evt_1', SENT, NOW);
		noteHandBack('scope-a', state, 'evt_1', SENT + 38_000, NOW + 40_000);
		expect(firstHandBackOf('scope-a', state, 'evt_1', NOW + 60_000)).toBe(SENT);
		expect(firstHandBackOf('scope-a', state, 'evt_2', NOW + 60_000)).toBeUndefined();
		expect(firstHandBackOf('scope-b', new TriggerState({ ...data }), 'evt_1', NOW + 60_000)).toBe(
			SENT,
		);
	});

	it('writes back an entry a concurrent save overwrote: the request that reads static data next restores it', () => {
		// Two deliveries of a burst, held at once: each loaded static data before the other's hand-back.
		const first = new TriggerState({});
		const second: IDataObject = {};
		noteHandBack('scope-c', first, 'evt_3', SENT, NOW);
		noteHandBack('scope-c', new TriggerState(second), 'evt_4', SENT, NOW);
		// The second save won; the next request of this process loads it and writes evt_3 back.
		const next: IDataObject = JSON.parse(JSON.stringify(second)) as IDataObject;
		expect(firstHandBackOf('scope-c', new TriggerState(next), 'evt_3', NOW + 30_000)).toBe(SENT);
		expect(new TriggerState(next).handBacks().map(([id]) => id)).toEqual(['evt_3', 'evt_4']);
	});

	it('a process that never saw the entry writes its own, later: the delivery gives up later, never sooner', () => {
		const state = new TriggerState({});
		noteHandBack('scope-d', state, 'evt_5', SENT + 38_000, NOW + 40_000);
		expect(firstHandBackOf('scope-d', state, 'evt_5', NOW + 60_000)).toBe(SENT + 38_000);
	});

	it('keeps each trigger apart, and forgets an event after the dedupe retention', () => {
		const state = new TriggerState({});
		noteHandBack('scope-e', state, 'evt_6', SENT, NOW);
		expect(firstHandBackOf('scope-f', new TriggerState({}), 'evt_6', NOW)).toBeUndefined();
		expect(firstHandBackOf('scope-e', state, 'evt_6', NOW + 29 * 60 * 60_000)).toBeUndefined();
	});
});
