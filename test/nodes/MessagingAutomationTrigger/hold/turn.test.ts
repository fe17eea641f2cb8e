import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DEMO, type SandboxHandle } from '../../../sandbox';
import type { N8nWebhookHost } from '../../../support/n8nWebhook';
import { activeMessageTrigger, messageDeliveries, useStoppedClock, waitFor } from '../fixtures';

/*
 * Group Quick Messages and Include Conversation History through n8n's webhook machinery. The
 * sandbox clock stands still and is moved by hand, so every message's timestamp (which alone
 * decides the bursts) is exact however busy the machine is; the quiet window the handlers wait in
 * real time only has to outlast the deliveries of messages already saved.
 */

const QUIET_S = 0.4;
const grouping = (extra: INodeParameters = {}): INodeParameters => ({
	groupQuickMessages: true,
	quietWindowSeconds: QUIET_S,
	longestWaitSeconds: 10,
	...extra,
});

let sandbox: SandboxHandle;
let trigger: N8nWebhookHost;
useStoppedClock(
	(started) => void (sandbox = started),
	() => trigger,
);
const activeTrigger = async (parameters: INodeParameters, apiKey?: string) =>
	(trigger = await activeMessageTrigger(sandbox, parameters, apiKey));

type From = { phone: string; name?: string };

/** An incoming message written `afterMs` after the previous one (sandbox time). */
function say(
	text: string,
	{
		from = DEMO.alice as From,
		afterMs = 1000,
		...extra
	}: { from?: From; afterMs?: number; group?: string; attachment?: IDataObject } = {},
) {
	sandbox.clock.advance(afterMs);
	const result = sandbox.inject.injectMessage({ from, text, ...(extra as object) });
	expect(result.saved).toBe(true);
	return result.message;
}

const attempts = () => messageDeliveries(sandbox, trigger);

/**
 * `deliveries` deliveries of message events (copies included) have been answered, and every
 * handler has finished. The endpoint's webhook.test delivery is not one of them.
 */
async function settledAfter(deliveries: number, timeoutMs = 20_000) {
	await waitFor(() => attempts().length >= deliveries, timeoutMs);
	await trigger.settled();
}

const runs = () => trigger.executions.map((execution) => execution.items[0].json);
const texts = (json: IDataObject) =>
	(json.messages as Array<{ text: string }>).map((message) => message.text);
const reads = () => sandbox.calls().filter((call) => call.tool === 'get_messages');

describe('Group Quick Messages', () => {
	it('starts one run per burst, messages in the order written, for two people at once', async () => {
		await activeTrigger(grouping());
		for (const text of ['hi', 'I ordered yesterday', 'order 4411', 'where is it??', 'thanks'])
			say(text, { afterMs: 300 });
		say('hello from bob', { from: DEMO.bob, afterMs: 100 });
		say('anyone there?', { from: DEMO.bob, afterMs: 300 });
		await settledAfter(7);

		expect(trigger.requests.every((request) => request.status === 200)).toBe(true);
		expect(
			trigger.requests.filter((request) => (request.body as IDataObject)?.ignored === undefined),
		).toHaveLength(7);
		expect(runs()).toHaveLength(2);
		const alice = runs().find(
			(json) => (json.sender as IDataObject).phone === DEMO.alice.phone,
		) as IDataObject;
		const bob = runs().find(
			(json) => (json.sender as IDataObject).phone === DEMO.bob.phone,
		) as IDataObject;
		expect(texts(alice)).toEqual([
			'hi',
			'I ordered yesterday',
			'order 4411',
			'where is it??',
			'thanks',
		]);
		expect(alice.text).toBe('hi\nI ordered yesterday\norder 4411\nwhere is it??\nthanks');
		expect(alice.burst).toMatchObject({ message_count: 5, closed_by: 'quiet_window' });
		expect(alice.message_id).toBe((alice.message_ids as string[])[4]);
		// The run carries the event of its last message: a reply's idempotency key follows it.
		expect((alice.data as { message: { id: string } }).message.id).toBe(alice.message_id);
		expect(texts(bob)).toEqual(['hello from bob', 'anyone there?']);
		// One look-up per burst, made when its quiet window has passed: not one per message.
		expect(reads()).toHaveLength(2);
	});

	it('keeps the written order when the deliveries arrive out of order', async () => {
		await activeTrigger(grouping());
		sandbox.webhooks.faults.reorderNext(4);
		for (const text of ['one', 'two', 'three', 'four']) say(text, { afterMs: 200 });
		await settledAfter(4);
		expect(runs()).toHaveLength(1);
		expect(texts(runs()[0])).toEqual(['one', 'two', 'three', 'four']);
	});

	it('adds a message delivered twice once and starts nothing for the copy', async () => {
		await activeTrigger(grouping());
		say('first', { afterMs: 200 });
		sandbox.webhooks.faults.duplicateNext(1);
		say('second', { afterMs: 200 });
		say('third', { afterMs: 200 });
		await settledAfter(4);
		expect(
			trigger.requests.filter((request) => (request.body as IDataObject)?.duplicate === true),
		).toHaveLength(1);
		expect(runs()).toHaveLength(1);
		expect(texts(runs()[0])).toEqual(['first', 'second', 'third']);
	});

	it('starts a new run for a message written after the quiet window', async () => {
		await activeTrigger(grouping());
		say('before', { afterMs: 200 });
		say('after the pause', { afterMs: QUIET_S * 1000 + 500 });
		await settledAfter(2);
		expect(runs().map(texts).sort()).toEqual([['after the pause'], ['before']]);
	});

	it('cuts a person who keeps typing at the longest wait', async () => {
		await activeTrigger(grouping({ longestWaitSeconds: 1 }));
		for (let index = 0; index < 6; index++) say(`line ${index}`, { afterMs: 300 });
		await settledAfter(6);
		// Written at 0, 0.3, … 1.5 s: the first burst takes what came within 1 s of its first message.
		expect(runs().map(texts).sort()).toEqual([
			['line 0', 'line 1', 'line 2', 'line 3'],
			['line 4', 'line 5'],
		]);
		expect(
			runs()
				.map((json) => (json.burst as IDataObject).closed_by)
				.sort(),
		).toEqual(['longest_wait', 'quiet_window']);
	});

	it('groups per sender in a group chat', async () => {
		await activeTrigger(grouping());
		const group = DEMO.adminGroup.jid;
		say('alice 1', { group, afterMs: 100 });
		say('bob 1', { group, from: DEMO.bob, afterMs: 100 });
		say('alice 2', { group, afterMs: 100 });
		say('bob 2', { group, from: DEMO.bob, afterMs: 100 });
		await settledAfter(4);
		expect(runs().map(texts).sort()).toEqual([
			['alice 1', 'alice 2'],
			['bob 1', 'bob 2'],
		]);
		expect(runs().every((json) => json.conversation_id === group)).toBe(true);
	});

	it("ends a burst at the account's own message in that conversation", async () => {
		// The own message goes out over HTTP after the first message's delivery has started: a longer
		// quiet window, so that delivery's look-up sees it however slow the machine is.
		await activeTrigger(grouping({ quietWindowSeconds: 3 }));
		say('question one', { afterMs: 100 });
		sandbox.clock.advance(100);
		const sent = await fetch(`${sandbox.url}/api/v1/tools/send_message`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${sandbox.keys.owner}`,
				'content-type': 'application/json',
				'idempotency-key': 'own-reply-0001',
			},
			body: JSON.stringify({
				channel: 'qr',
				phoneNumber: DEMO.alice.phone,
				text: 'a human answered',
			}),
		});
		expect(sent.status).toBe(200);
		say('question two', { afterMs: 100 });
		await settledAfter(2);
		expect(runs().map(texts).sort()).toEqual([['question one'], ['question two']]);
		const first = runs().find((json) => texts(json)[0] === 'question one') as IDataObject;
		expect((first.burst as IDataObject).closed_by).toBe('own_message');
	});

	it('downloads the attachments of a burst, one binary field each', async () => {
		await activeTrigger(grouping({ options: { downloadAttachments: true } }));
		say('here is the receipt', {
			afterMs: 100,
			attachment: { fileName: 'receipt.txt', mimeType: 'text/plain', content: 'receipt bytes' },
		});
		say('and the label', {
			afterMs: 100,
			attachment: { fileName: 'label.txt', mimeType: 'text/plain', content: 'label bytes' },
		});
		say('thanks', { afterMs: 100 });
		await settledAfter(3);
		const [execution] = trigger.executions;
		expect(trigger.executions).toHaveLength(1);
		const binary = execution.items[0].binary ?? {};
		expect(Object.keys(binary).sort()).toEqual(['data', 'data_1']);
		expect(Buffer.from(binary.data.data, 'base64').toString()).toBe('receipt bytes');
		expect(Buffer.from(binary.data_1.data, 'base64').toString()).toBe('label bytes');
		const messages = execution.items[0].json.messages as IDataObject[];
		expect(messages.map((message) => message.binary_property ?? null)).toEqual([
			'data',
			'data_1',
			null,
		]);
	});

	it("hands the deliveries back while the service is unreadable, and runs each message on its own, saying why, at the service's third attempt; none is lost", async () => {
		await activeTrigger(grouping({ longestWaitSeconds: 1 }));
		sandbox.faults.add({ tool: 'get_messages', kind: 'toolError503', times: 100_000 });
		for (const text of ['a', 'b', 'c']) say(text, { afterMs: 100 });
		// Each round waits out the 8-s hold.
		await settledAfter(3, 60_000);
		// Unsettled at their deadline: the service keeps them and sends them again.
		expect(attempts().map((attempt) => attempt.statusCode)).toEqual([503, 503, 503]);
		expect(runs()).toEqual([]);

		// The service's first retries (30 s on) go back too: a delivery gives up only after this node
		// handed two of its attempts back (handBacks.ts).
		sandbox.clock.advance(40_000);
		await settledAfter(6, 60_000);
		expect(attempts().map((attempt) => attempt.statusCode)).toEqual(Array(6).fill(503));
		// The service's third attempts, 2 minutes later: still unreadable, so each runs on its own.
		sandbox.clock.advance(150_000);
		await settledAfter(9, 60_000);
		expect(runs().map(texts).sort()).toEqual([['a'], ['b'], ['c']]);
		for (const json of runs())
			expect(String((json.burst as IDataObject).error)).toMatch(
				/^Not grouped: The service is temporarily unavailable.*\(still not read at the service's third attempt\)$/s,
			);
		// Each run's delivery answered by n8n once it recorded the run, never before (a run n8n could
		// not record then would be lost).
		const messageAnswers = trigger.requests.filter(
			(request) => !('ignored' in ((request.body ?? {}) as object)),
		);
		expect(messageAnswers.slice(-3).map((request) => [request.status, request.answeredBy])).toEqual(
			[
				[200, 'n8n'],
				[200, 'n8n'],
				[200, 'n8n'],
			],
		);
	}, 200_000);

	it("hands back a first delivery whatever its message's age: a burst saved 3 minutes late, one failed read while held, runs once whole on the retry", async () => {
		await activeTrigger(grouping());
		// Unreadable while the first attempts are held (the reader's own retries too), readable after.
		sandbox.faults.add({ tool: 'get_messages', kind: 'toolError503', times: 100_000 });
		for (const text of ['on the train', 'no signal here', 'call me later?']) {
			expect(
				sandbox.inject.injectMessage({ from: DEMO.alice, text, savedLateMs: 180_000 }).saved,
			).toBe(true);
			sandbox.clock.advance(300);
		}
		await settledAfter(3, 60_000);
		expect(attempts().map((attempt) => attempt.statusCode)).toEqual([503, 503, 503]);
		expect(runs()).toEqual([]);

		sandbox.faults.clear();
		sandbox.clock.advance(40_000);
		await settledAfter(6, 60_000);
		expect(runs().map(texts)).toEqual([['on the train', 'no signal here', 'call me later?']]);
		expect(runs()[0].burst).not.toHaveProperty('error');
	}, 120_000);
});

describe('grouping off', () => {
	it("runs every message on its own with today's output and reads nothing", async () => {
		await activeTrigger({});
		for (const text of ['x', 'y']) say(text, { afterMs: 100 });
		await settledAfter(2);
		expect(
			runs()
				.map((json) => json.text)
				.sort(),
		).toEqual(['x', 'y']);
		for (const json of runs()) {
			expect(json).not.toHaveProperty('messages');
			expect(json).not.toHaveProperty('history');
		}
		expect(reads()).toHaveLength(0);
	});
});

describe('Include Conversation History', () => {
	it('adds the earlier messages before the turn, who said them and when, ready for a prompt', async () => {
		await activeTrigger(grouping({ includeHistory: true, historyMessages: 3 }));
		say('earlier question', { afterMs: 60_000 });
		sandbox.clock.advance(60_000);
		say('new one', { afterMs: 100 });
		say('second part', { afterMs: 100 });
		await settledAfter(3);
		const turn = runs().find((json) => texts(json).includes('new one')) as IDataObject;
		expect(texts(turn)).toEqual(['new one', 'second part']);
		const history = turn.history as IDataObject[];
		expect(history).toHaveLength(3);
		expect(history[2]).toMatchObject({
			role: 'person',
			name: DEMO.alice.name,
			text: 'earlier question',
		});
		expect(history.some((entry) => entry.role === 'account' && entry.name === 'You')).toBe(true);
		expect(String(turn.history_text).split('\n')).toHaveLength(3);
		expect(String(turn.history_text)).toMatch(/\] Alice Example: earlier question$/);
	});

	it('still starts the run without history, saying why, when the key may not read messages', async () => {
		const key = sandbox.inject.createKey({
			name: 'no-read',
			scopes: ['messenger.send', 'messenger.webhooks:manage'],
			owner: true,
		}).key;
		await activeTrigger({ includeHistory: true }, key);
		say('hello', { afterMs: 100 });
		await settledAfter(1);
		expect(runs()).toHaveLength(1);
		expect(runs()[0].history).toEqual([]);
		expect(String(runs()[0].history_error)).toMatch(/^No history: .*messenger\.read/);
	});
});
