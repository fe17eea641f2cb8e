import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { settledAfter, waitFor } from '../fixtures';
import { useRealQuestions } from './realQuestions';

/*
 * Answers in the chat end to end in n8n's engine, against the sandbox: the trigger reads the
 * conversation and offers replies through the questions' own links, and the real Send and Wait
 * node behind those links decides from its own read whether to resume (realQuestions.ts). Each test is named
 * after the sentence of docs/answers-in-chat.md ("What counts as an answer") or the finding of
 * issues 43 and 44 it holds.
 */

const { h, resumes, setLine, activeTrigger, question, ask, say, accountWrites, ran, texts, calls } =
	useRealQuestions();

describe('What counts as an answer (docs/answers-in-chat.md)', () => {
	it('every waiting question of this n8n in the chat counts, whatever its response type: a newer question without Answer in Chat is the newest (issue 44, finding 1)', async () => {
		const trigger = await activeTrigger();
		const older = await ask(question());
		await ask(question({ message: 'Refund 500 EUR?', answerInChat: false }));
		say('1');
		await settledAfter(h.sandbox, trigger, 1);
		expect(resumes).toEqual([]);
		expect(texts(trigger)).toEqual(['1']);
		expect(ran(trigger)[0].json.waiting_question).toMatchObject({ message_id: older.id });
	});

	it('a newer Custom Form question is the newest too: an unquoted "1" answers neither', async () => {
		const trigger = await activeTrigger();
		await ask(question());
		await ask(
			question({
				message: 'Which order?',
				responseType: 'customForm',
				formFields: { values: [{ fieldLabel: 'Order' }] },
			}),
		);
		say('1');
		await settledAfter(h.sandbox, trigger, 1);
		expect(resumes).toEqual([]);
		expect(texts(trigger)).toEqual(['1']);
	});

	it('without quoting, a reply answers only the newest question, when it takes answers in the chat and your account has not written after it', async () => {
		const trigger = await activeTrigger();
		const { key } = await ask(question());
		say('1');
		await settledAfter(h.sandbox, trigger, 1);
		expect(resumes).toEqual([{ key, data: expect.objectContaining({ approved: true }) }]);
		expect(texts(trigger)).toEqual([]);
	});

	it('once your account writes again, only a reply quoting the question answers it, numbers and words alike: a bot’s numbered menu does not answer the question (issue 44, finding 2)', async () => {
		const trigger = await activeTrigger();
		const { id, key } = await ask(question());
		accountWrites('Reply 1 for opening hours, 2 to talk to a person');
		say('2');
		say('yes');
		await settledAfter(h.sandbox, trigger, 2);
		expect(resumes).toEqual([]);
		expect(texts(trigger)).toEqual(['2', 'yes']);
		expect(ran(trigger)[1].json.waiting_question).toMatchObject({
			message_id: id,
			how_to_answer: expect.stringContaining('quote it'),
		});
		say('2', id);
		await settledAfter(h.sandbox, trigger, 3);
		expect(resumes).toEqual([{ key, data: expect.objectContaining({ approved: false }) }]);
	});

	it('a reply quoting a question answers it, however many questions came after it', async () => {
		const trigger = await activeTrigger();
		const older = await ask(question());
		await ask(question({ message: 'Refund 500 EUR?', answerInChat: false }));
		say('1', older.id);
		await settledAfter(h.sandbox, trigger, 1);
		expect(resumes).toEqual([
			{ key: older.key, data: expect.objectContaining({ approved: true }) },
		]);
		expect(texts(trigger)).toEqual([]);
	});

	it.each(['1?', 'yes?', 'no?', '2?!'])(
		'a question mark makes a reply no answer: %j asks back (issue 44, finding 3)',
		async (text) => {
			const trigger = await activeTrigger();
			const { id } = await ask(question());
			say(text);
			await settledAfter(h.sandbox, trigger, 1);
			expect(resumes).toEqual([]);
			expect(texts(trigger)).toEqual([text]);
			expect(ran(trigger)[0].json.waiting_question).toMatchObject({ message_id: id });
		},
	);

	it('a message that answers nothing while no question waits has waiting_question null', async () => {
		const trigger = await activeTrigger();
		say('hello');
		await settledAfter(h.sandbox, trigger, 1);
		expect(ran(trigger)[0].json.waiting_question).toBeNull();
	});
});

describe('Answers inside the safe path (issue 43)', () => {
	const grouped: INodeParameters = {
		groupQuickMessages: true,
		quietWindowSeconds: 1,
		longestWaitSeconds: 10,
	};

	it('each answer in a burst reaches its question: "1" quoting A and "1" for the newer B both resume (finding 6)', async () => {
		const trigger = await activeTrigger(grouped);
		const a = await ask(question());
		const b = await ask(question({ message: 'Refund 500 EUR?' }));
		say('1', a.id);
		say('1');
		await settledAfter(h.sandbox, trigger, 2);
		expect(resumes.map((resume) => resume.key).sort()).toEqual([a.key, b.key].sort());
		expect(ran(trigger)).toEqual([]);
	});

	it.each([
		['grouped', grouped],
		['not grouped', {}],
	])(
		'Deduplicate Events off, %s, the service sends the "1" twice: the copy, read once the question stopped waiting, runs nothing (soak finding D)',
		async (_, grouping) => {
			const trigger = await activeTrigger({ ...grouping, options: { deduplicate: false } });
			const { key } = await ask(question());
			h.sandbox.webhooks.faults.duplicateNext(1);
			const answer = say('1');
			await waitFor(
				() => h.sandbox.webhooks.attempts().filter((a) => a.body?.includes(answer.id)).length >= 2,
				20_000,
			);
			await trigger.settled();
			expect(resumes.map((resume) => resume.key)).toEqual([key]);
			expect(trigger.executions.length).toBeGreaterThan(0);
			expect(texts(trigger)).toEqual([]);
		},
	);

	it('one reply offered twice at once resumes once on n8n 1.x: two triggers of the account (finding 7)', async () => {
		setLine('1.x');
		const first = await activeTrigger();
		const second = await activeTrigger();
		const { key } = await ask(question());
		say('1');
		await settledAfter(h.sandbox, first, 1);
		await settledAfter(h.sandbox, second, 1);
		expect(resumes.map((resume) => resume.key)).toEqual([key]);
		expect([...texts(first), ...texts(second)]).toEqual([]);
	});

	it('a failed read hands the delivery back (503), never runs an answer as a message; the retry answers (finding 8)', async () => {
		const trigger = await activeTrigger();
		const { key } = await ask(question());
		h.sandbox.faults.add({ tool: 'get_messages', kind: 'rateLimited', times: 1000 });
		const answer = say('1');
		const attempts = () =>
			h.sandbox.webhooks
				.attempts()
				.filter((attempt) => attempt.url === trigger.url('production'))
				.filter((attempt) => attempt.body?.includes(answer.id));
		await waitFor(() => attempts().length >= 1, 20_000);
		await trigger.settled();
		expect(attempts().map((attempt) => attempt.statusCode)).toEqual([503]);
		h.sandbox.faults.clear();
		h.sandbox.clock.advance(40_000);
		await waitFor(() => attempts().length >= 2, 20_000);
		await trigger.settled();
		expect(attempts().map((attempt) => attempt.statusCode)).toEqual([503, 200]);
		expect(resumes).toEqual([{ key, data: expect.objectContaining({ approved: true }) }]);
		expect(texts(trigger)).toEqual([]);
	});

	it('a burst with a waiting question costs one look-up and one read per question answered; messages that answer nothing cost nothing extra (finding 10)', async () => {
		const trigger = await activeTrigger(grouped);
		await ask(question());
		const before = { status: calls('get_send_status'), reads: calls('get_messages') };
		for (const text of ['hi', 'are you', 'there']) say(text);
		await settledAfter(h.sandbox, trigger, 3);
		expect(texts(trigger)).toEqual(['hi\nare you\nthere']);
		expect(calls('get_send_status') - before.status).toBe(0);
		expect(calls('get_messages') - before.reads).toBe(1);
		for (const text of ['hmm', '1', 'thanks']) say(text);
		await settledAfter(h.sandbox, trigger, 6);
		expect(resumes).toHaveLength(1);
		expect(calls('get_send_status') - before.status).toBe(1);
		expect(calls('get_messages') - before.reads).toBe(3);
	});
});
