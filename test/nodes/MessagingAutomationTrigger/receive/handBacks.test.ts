import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	handBacksOf,
	noteHandBack,
} from '../../../../nodes/MessagingAutomationTrigger/receive/handBacks';
import { TriggerState } from '../../../../nodes/MessagingAutomationTrigger/state';

const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);

describe('hand-backs of an event', () => {
	it('counts each hand-back of one event, in this process and in static data', () => {
		const data: IDataObject = {};
		const state = new TriggerState(data);
		expect(handBacksOf('scope-a', state, 'evt_1', NOW)).toBe(0);
		noteHandBack('scope-a', state, 'evt_1', NOW);
		noteHandBack('scope-a', state, 'evt_1', NOW + 30_000);
		expect(handBacksOf('scope-a', state, 'evt_1', NOW + 60_000)).toBe(2);
		expect(handBacksOf('scope-a', state, 'evt_2', NOW + 60_000)).toBe(0);
		// Another process (or a restart) sees the static data.
		expect(handBacksOf('scope-b', new TriggerState({ ...data }), 'evt_1', NOW + 60_000)).toBe(2);
	});

	it('keeps the larger count when concurrent deliveries overwrote each other’s static data', () => {
		const state = new TriggerState({});
		noteHandBack('scope-c', state, 'evt_3', NOW);
		noteHandBack('scope-c', new TriggerState({}), 'evt_3', NOW + 30_000);
		expect(handBacksOf('scope-c', new TriggerState({}), 'evt_3', NOW + 60_000)).toBe(2);
	});

	it('forgets an event after the dedupe retention', () => {
		const state = new TriggerState({});
		noteHandBack('scope-d', state, 'evt_4', NOW);
		expect(handBacksOf('scope-d', state, 'evt_4', NOW + 29 * 60 * 60_000)).toBe(0);
	});
});
