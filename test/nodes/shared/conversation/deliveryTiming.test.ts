import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import {
	GIVE_UP_AFTER_MS,
	givesUp,
	HOLD_MS,
	isRetried,
	KEEP_READ_MS,
	OFFER_RETRY_PAUSES_MS,
	READ_LEAD_MS,
	RECEIVER_TIMEOUT_MS,
	RETRIED_AFTER_MS,
} from '../../../../nodes/shared/conversation/deliveryTiming';

/*
 * The delivery path's figures, and the sentences of docs/conversations.md that quote them: a
 * change to a figure fails here until the docs say it too.
 */

const docs = readFileSync(
	join(__dirname, '..', '..', '..', '..', 'docs', 'conversations.md'),
	'utf8',
).replace(/\s+/g, ' ');
const seconds = (ms: number) => `${ms / 1000} s`;

describe('the delivery timing', () => {
	it('keeps every answer inside the receiver time-out, and tells a retry from a fresh delivery', () => {
		expect(HOLD_MS).toBeLessThan(RECEIVER_TIMEOUT_MS);
		// The first retry comes 24 s or more after its message; a lagging queue sends seconds late.
		expect(RETRIED_AFTER_MS).toBeLessThan(24_000);
		expect(isRetried(20_000, 0)).toBe(true);
		expect(isRetried(12_000, 0)).toBe(false);
		expect(isRetried(20_000, undefined)).toBe(false);
	});

	it("gives up only at the service's third attempt, counted on the service's clock from the first attempt handed back", () => {
		// The third attempt: 30 s and 2 min after two failures, less 20 % jitter each.
		expect(GIVE_UP_AFTER_MS).toBe(120_000);
		expect(givesUp(120_000, 0)).toBe(true);
		// The first retry at its latest (36 s plus a 10-s time-out), and the attempt handed back itself.
		expect(givesUp(46_000, 0)).toBe(false);
		expect(givesUp(180_000, 180_000)).toBe(false);
		// No attempt handed back before: a first attempt, however late the service sends it.
		expect(givesUp(180_000, undefined)).toBe(false);
	});

	it("makes an answer offer that got no verdict again until the service's third attempt would give up, not sooner", () => {
		const lastTry = OFFER_RETRY_PAUSES_MS.reduce((sum, pause) => sum + pause, 0);
		expect(lastTry).toBeGreaterThanOrEqual(GIVE_UP_AFTER_MS);
		// Its last try comes when the service's third attempt comes without jitter: 30 s + 2 min.
		expect(lastTry - OFFER_RETRY_PAUSES_MS[0]).toBe(150_000);
	});

	it('is what docs/conversations.md says', () => {
		expect(docs).toContain(
			`A delivery is held **${seconds(HOLD_MS)} at most** after the service sent it`,
		);
		expect(docs).toContain(`a quiet window over ${Math.floor(HOLD_MS / 1000)} s`);
		expect(docs).toContain(`about (${seconds(HOLD_MS - READ_LEAD_MS)} − quiet window)`);
		expect(docs).toContain("A run's delivery is never answered before n8n recorded the run");
		expect(docs).toContain(
			`sent more than ${seconds(RETRIED_AFTER_MS)} after the service queued its event`,
		);
		expect(docs).toContain(
			`${GIVE_UP_AFTER_MS / 60_000} minutes or more after the first attempt of its event this node handed back`,
		);
		expect(KEEP_READ_MS).toBe(60_000);
		expect(docs).toContain('settles, for a minute,');
	});
});
