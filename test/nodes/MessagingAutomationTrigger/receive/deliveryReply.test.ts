import { describe, expect, it } from 'vitest';

import { DeliveryReply } from '../../../../nodes/MessagingAutomationTrigger/receive/deliveryReply';

/*
 * A delivery's one answer (deliveryReply.ts), on a response that records what was written. The
 * paths that answer it (the desk, the turn, the hand-over) are proved through n8n's engine in the
 * other files of this folder; here, that however many of them decide, one answer goes out.
 */

function recorded() {
	const written: { status: number; body: unknown }[] = [];
	let status = 0;
	const response = {
		writeHead: (code: number) => (status = code),
		end: (body: string) => written.push({ status, body: JSON.parse(body) }),
	};
	const forgotten: string[] = [];
	const reply = new DeliveryReply(response);
	reply.onHandBack(() => forgotten.push('event'));
	return { reply, written, forgotten };
}

const workflowData = [[{ json: { run: 1 } }]];

describe('a delivery reply', () => {
	it('answers once: a hand-back after a 200 is refused and keeps the event seen', () => {
		const { reply, written, forgotten } = recorded();
		reply.received();
		expect(reply.handBack()).toBe(false);
		reply.answer(401, { error: 'late' });
		expect(written).toEqual([{ status: 200, body: { received: true } }]);
		expect(forgotten).toEqual([]);
		expect(reply.state).toBe('answered');
	});

	it('hands back once with 503, forgetting the event, and answers nothing after', () => {
		const { reply, written, forgotten } = recorded();
		expect(reply.handBack()).toBe(true);
		expect(reply.handBack()).toBe(false);
		reply.received();
		expect(written).toEqual([
			{ status: 503, body: { received: false, reason: 'not settled in time; send again' } },
		]);
		expect(forgotten).toEqual(['event']);
		expect(reply.result(workflowData)).toEqual({ noWebhookResponse: true, workflowData });
	});

	it("leaves a run's delivery nobody answered to n8n, writing nothing", () => {
		const { reply, written } = recorded();
		expect(reply.result(workflowData)).toEqual({
			webhookResponse: { received: true },
			workflowData,
		});
		expect(reply.state).toBe('leftToN8n');
		expect(written).toEqual([]);
	});

	it('answers 200 a delivery that starts nothing and nobody answered', () => {
		const { reply, written } = recorded();
		expect(reply.result()).toEqual({ noWebhookResponse: true });
		expect(written).toEqual([{ status: 200, body: { received: true } }]);
	});
});
