import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { SandboxClock } from '../../../sandbox';
import { fieldsParameters, useHarness } from '../harness';

/*
 * Proactive pacing with the Rate Limit Budget option: a run of many writes stays inside the
 * service's sliding windows and meets no 429. The sandbox's clock runs 60 times faster, so its
 * minute lasts a real second and the node's window is set to match. A slow machine only spreads
 * the writes further apart: the node counts a write until its answer is in, and the sandbox
 * counts it when it arrives.
 */

const SPEED = 60;
const WRITES = 320;

const h = useHarness({ clock: new SandboxClock({ start: Date.UTC(2026, 9, 1, 8, 0, 0), speed: SPEED }) });

const items = Array.from({ length: WRITES }, (_, index) => ({ name: `Campaign ${index}` }));
const createCampaign = (options: INodeParameters) =>
	fieldsParameters(
		'create_campaign',
		{ name: '={{ $json.name }}', templateName: 'order_update', templateLanguage: 'en', maxMessages: 10 },
		{ options },
	);

describe('Rate Limit Budget', () => {
	it(`keeps ${WRITES} writes under 120 per sliding minute: zero 429`, async () => {
		const result = await h.run({ parameters: createCampaign({ rateLimitBudget: { budget: { windowSeconds: 60 / SPEED } } }) }, items);
		expect(result.error).toBeUndefined();
		expect(result.calls).toHaveLength(WRITES);
		expect(result.calls.filter((call) => call.status === 429)).toEqual([]);
		expect(result.json.every((json) => typeof json.campaign_id === 'string')).toBe(true);
		// On the sandbox clock no 60-second window ever holds more than 120 writes.
		const times = result.calls.map((call) => Date.parse(call.at));
		const busiest = Math.max(...times.map((start) => times.filter((at) => at >= start && at < start + 60_000).length));
		expect(busiest).toBeLessThanOrEqual(120);
	});

	it('without a matching budget the same run does meet 429s (the check above can fail)', async () => {
		const unpaced = createCampaign({ rateLimitBudget: { budget: { write: 10_000 } }, rateLimitWaitSeconds: 0 });
		// The sandbox's clock stands still, so however slowly this machine sends, all 150 writes fall in one minute.
		h.sandbox.clock.setSpeed(0);
		try {
			const result = await h.run({ parameters: unpaced, continueOnFail: true }, items.slice(0, 150));
			expect(result.calls.filter((call) => call.errorCode === 'rate_limited')).toHaveLength(30);
			expect(result.json.filter((json) => json.error).every((json) => (json.error as { code: string }).code === 'rate_limited')).toBe(true);
		} finally {
			h.sandbox.clock.setSpeed(SPEED);
		}
	});

	it('paces QR sends to the per-number budget', async () => {
		const parameters = fieldsParameters(
			'send_message',
			{ channel: 'qr', phoneNumber: '4915112345678', text: '={{ "Update " + $json.n }}' },
			{ options: { rateLimitBudget: { budget: { windowSeconds: 60 / SPEED } } } },
		);
		const result = await h.run({ parameters }, Array.from({ length: 8 }, (_, n) => ({ n })));
		expect(result.error).toBeUndefined();
		expect(result.calls.map((call) => call.status)).toEqual(Array(8).fill(200));
	});
});
