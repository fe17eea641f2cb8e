import { describe, expect, it } from 'vitest';
import { retryDelayMs } from './retrySchedule';

const SCHEDULE_MS = [30e3, 120e3, 600e3, 1800e3, 3600e3, 3 * 3600e3, 6 * 3600e3, 12 * 3600e3];

describe('retryDelayMs', () => {
	it('spans exactly the ±20% band around each delay of the spec', () => {
		SCHEDULE_MS.forEach((base, index) => {
			expect(retryDelayMs(index + 1, () => 0)).toBe(base * 0.8);
			expect(retryDelayMs(index + 1, () => 0.5)).toBe(base);
			expect(retryDelayMs(index + 1, () => 1 - Number.EPSILON)).toBe(Math.round(base * 1.2));
		});
	});

	it('has no delay after the ninth failed attempt, or any later one', () => {
		expect(retryDelayMs(8, () => 0.5)).toBe(12 * 3600e3);
		expect(retryDelayMs(9, () => 0.5)).toBeNull();
		expect(retryDelayMs(10, () => 0.5)).toBeNull();
	});
});
