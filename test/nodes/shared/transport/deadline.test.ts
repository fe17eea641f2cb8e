import { describe, expect, it } from 'vitest';

import { beforeDeadline, deadlineSignal } from '../../../../nodes/shared/transport/deadline';

describe('deadlineSignal', () => {
	it('aborts once the time is up, not before', async () => {
		const signal = deadlineSignal(50);
		expect(signal.aborted).toBe(false);
		await new Promise((resolve) => signal.addEventListener('abort', resolve));
		expect(signal.aborted).toBe(true);
	});
});

describe('beforeDeadline', () => {
	it('settles as the work does while the deadline has not passed', async () => {
		const deadline = new AbortController();
		await expect(beforeDeadline(Promise.resolve('answer'), deadline.signal)).resolves.toBe('answer');
		await expect(beforeDeadline(Promise.reject(new Error('refused')), deadline.signal)).rejects.toThrow('refused');
	});

	it('gives up when the deadline passes, though the work never ends', async () => {
		const deadline = new AbortController();
		const call = beforeDeadline(new Promise(() => {}), deadline.signal);
		deadline.abort();
		await expect(call).rejects.toThrow(/deadline passed/);
		await expect(beforeDeadline(Promise.resolve('late'), deadline.signal)).rejects.toThrow(/deadline passed/);
	});
});
