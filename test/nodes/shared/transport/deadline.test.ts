import { describe, expect, it } from 'vitest';

import { deadlineSignal } from '../../../../nodes/shared/transport/deadline';

describe('deadlineSignal', () => {
	it('aborts once the time is up, not before', async () => {
		const signal = deadlineSignal(50);
		expect(signal.aborted).toBe(false);
		await new Promise((resolve) => signal.addEventListener('abort', resolve));
		expect(signal.aborted).toBe(true);
	});
});
