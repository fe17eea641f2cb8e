import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { isDuplicateOrRecord, MAX_DEDUPE_WINDOW } from '../../../nodes/MessagingAutomationTrigger/dedupe';
import { TriggerState } from '../../../nodes/MessagingAutomationTrigger/state';

describe('isDuplicateOrRecord', () => {
	it('records new ids and recognises repeats within the window', () => {
		const data: IDataObject = {};
		const state = new TriggerState(data);
		expect(isDuplicateOrRecord(state, 'evt_a', 3)).toBe(false);
		expect(isDuplicateOrRecord(state, 'evt_a', 3)).toBe(true);
		expect(data.recentEventIds).toEqual(['evt_a']);
	});

	it('forgets the oldest ids beyond the window', () => {
		const state = new TriggerState({});
		for (const id of ['evt_1', 'evt_2', 'evt_3', 'evt_4']) isDuplicateOrRecord(state, id, 3);
		expect(state.recentEventIds()).toEqual(['evt_2', 'evt_3', 'evt_4']);
		expect(isDuplicateOrRecord(state, 'evt_1', 3)).toBe(false);
	});

	it('clamps a window outside 1..10,000', () => {
		const state = new TriggerState({ recentEventIds: Array.from({ length: MAX_DEDUPE_WINDOW }, (_, i) => `evt_${i}`) });
		isDuplicateOrRecord(state, 'evt_new', 1_000_000);
		expect(state.recentEventIds()).toHaveLength(MAX_DEDUPE_WINDOW);
		isDuplicateOrRecord(state, 'evt_newer', 0);
		expect(state.recentEventIds()).toEqual(['evt_newer']);
	});
});
