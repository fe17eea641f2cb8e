import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DEMO } from '../../../../sandbox';
import { callWaitingWebhook } from '../../../../support/waitingWebhook';
import { actionNode, useHarness } from '../../harness';

/*
 * Answer in Chat, the node's side, in n8n's engine against the sandbox: the question goes out with
 * the line saying how to answer in words; a request naming a reply resumes the execution only when
 * the saved messages back the answer. Whatever the request claims, the sandbox's saved messages
 * decide.
 */

const h = useHarness();

const ask = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'message',
	operation: 'sendAndWait',
	channel: 'qr',
	sendTo: 'phoneNumber',
	phoneNumber: DEMO.alice.phone,
	message: 'May we refund order 1042?',
	answerInChat: true,
	approvalOptions: { values: { approvalType: 'double' } },
	...extra,
});

/** Asks, and gives the question as sent and its first link. */
async function asked(parameters: INodeParameters) {
	const run = await h.run({ parameters });
	expect(run.error).toBeUndefined();
	const input = run.calls.find((call) => call.tool === 'send_message')?.input as { text: string };
	const link = /https?:\/\/\S+/.exec(input.text)?.[0] ?? '';
	return { text: input.text, link, questionId: String(run.json[0].messageId) };
}

/** A message of `from` in its one-to-one chat with the account, a second after the last. */
function reply(
	text: string,
	{ from = DEMO.alice as { phone: string; name: string }, quotedMessageId = '' } = {},
) {
	h.sandbox.clock.advance(1000);
	const injected = h.sandbox.inject.injectMessage({
		from,
		text,
		...(quotedMessageId ? { quotedMessageId } : {}),
	});
	return injected.message;
}

async function offer(parameters: INodeParameters, link: string, ...messageIds: string[]) {
	return await callWaitingWebhook(h.engine, actionNode({ parameters }), {
		method: 'POST',
		url: link,
		body: { chatAnswer: { messageIds } },
		headers: { 'content-type': 'application/json' },
	});
}

describe('Answer in Chat: the question', () => {
	it('says how to answer in words above the links, which mark the question for the chat', async () => {
		const { text, link } = await asked(ask());
		expect(text).toMatch(
			/^May we refund order 1042\?\n\nReply 1 to Approve or 2 to Decline\n\nApprove: http\S+\nDecline: http\S+$/,
		);
		expect(new URL(link).searchParams.get('chat')).toBe('1');
	});

	it('says it in your words, and for free text asks for a reply', async () => {
		expect(
			(await asked(ask({ chatInstructions: 'Antworte 1 (ja) oder 2 (nein)' }))).text,
		).toContain('\n\nAntworte 1 (ja) oder 2 (nein)\n\n');
		expect((await asked(ask({ responseType: 'freeText' }))).text).toContain(
			'\n\nReply to this message with your answer\n\n',
		);
	});

	it('carries the wait limit in the links', async () => {
		const limit = {
			limitWaitTime: {
				values: { limitType: 'afterTimeInterval', resumeAmount: 2, resumeUnit: 'hours' },
			},
		};
		const { link } = await asked(ask({ options: limit }));
		expect(Number(new URL(link).searchParams.get('until'))).toBeGreaterThan(Date.now() + 3_500_000);
	});

	it('is unchanged without Answer in Chat', async () => {
		const { text, link } = await asked(ask({ answerInChat: false }));
		expect(text).not.toContain('Reply 1');
		expect(new URL(link).searchParams.has('chat')).toBe(false);
	});
});

describe('Answer in Chat: a reply named to the resume link', () => {
	it.each([
		['1', true],
		['2', false],
		[' YES! ', true],
		['👍', true],
	])(
		'approval: 1 approves and 2 declines, so do the labels and the listed words; how it is read: only the whole text counts, marks, case and spaces around it do not ("%s" resumes with approved %s)',
		async (text, approved) => {
			const parameters = ask();
			const { link, questionId } = await asked(parameters);
			const answer = reply(text);
			const { result } = await offer(parameters, link, answer.id);
			expect(result.webhookResponse).toEqual({ answered: true, messageId: answer.id });
			expect(result.workflowData?.[0]?.[0]?.json).toEqual({
				messageId: questionId,
				data: {
					approved,
					respondedAt: answer.timestamp,
					answeredIn: 'chat',
					answerMessageId: answer.id,
					from: { phone: DEMO.alice.phone, name: DEMO.alice.name },
				},
			});
		},
	);

	it('once: the first valid answer decides, a later reply does not resume', async () => {
		const parameters = ask();
		const { link } = await asked(parameters);
		const one = reply('1');
		const two = reply('2');
		expect((await offer(parameters, link, two.id)).result.workflowData).toBeUndefined();
		const first = await offer(parameters, link, one.id);
		expect(first.result.workflowData?.[0]?.[0]?.json.data).toMatchObject({ approved: true });
	});

	it('"why?" leaves it waiting and says so; "1" after it answers', async () => {
		const parameters = ask();
		const { link } = await asked(parameters);
		const why = await offer(parameters, link, reply('why?').id);
		expect(why.result).toEqual({ noWebhookResponse: true });
		expect(JSON.parse(why.body ?? '')).toEqual({ answered: false });
		const one = await offer(parameters, link, reply('1').id);
		expect(one.result.workflowData?.[0]?.[0]?.json.data).toMatchObject({ approved: true });
	});

	it('two questions waiting: an unquoted reply answers only the newer; quoting the older answers the older', async () => {
		const older = ask({ message: 'Refund 25 EUR?' });
		const first = await asked(older);
		const newer = ask({ message: 'Refund 500 EUR?' });
		const second = await asked(newer);
		const one = reply('1');
		const toOlder = await offer(older, first.link, one.id);
		expect(toOlder.result.workflowData).toBeUndefined();
		expect(JSON.parse(toOlder.body ?? '')).toEqual({ answered: false });
		const toNewer = await offer(newer, second.link, one.id);
		expect(toNewer.result.workflowData?.[0]?.[0]?.json).toMatchObject({
			messageId: second.questionId,
			data: { approved: true },
		});
		const quoting = reply('2', { quotedMessageId: first.questionId });
		expect((await offer(newer, second.link, quoting.id)).result.workflowData).toBeUndefined();
		const toOlderQuoted = await offer(older, first.link, quoting.id);
		expect(toOlderQuoted.result.workflowData?.[0]?.[0]?.json).toMatchObject({
			messageId: first.questionId,
			data: { approved: false },
		});
	});

	it('once your account writes again, only a reply quoting the question answers it, numbers and words alike', async () => {
		const parameters = ask();
		const { link, questionId } = await asked(parameters);
		h.sandbox.clock.advance(1000);
		h.sandbox.inject.injectMessage({
			from: DEMO.alice,
			fromMe: true,
			text: 'Reply 1 for opening hours, 2 to talk to a person',
		});
		for (const text of ['yes', '1', '2']) {
			const casual = await offer(parameters, link, reply(text).id);
			expect({ text, resumed: casual.result.workflowData }).toEqual({ text, resumed: undefined });
		}
		const quoting = await offer(parameters, link, reply('1', { quotedMessageId: questionId }).id);
		expect(quoting.result.workflowData?.[0]?.[0]?.json.data).toMatchObject({ approved: true });
	});

	it('several named replies: the first that answers resumes, and the answer names it', async () => {
		const parameters = ask();
		const { link } = await asked(parameters);
		const hmm = reply('hmm');
		const one = reply('1');
		const { result } = await offer(parameters, link, hmm.id, one.id);
		expect(result.webhookResponse).toEqual({ answered: true, messageId: one.id });
		expect(result.workflowData?.[0]?.[0]?.json.data).toMatchObject({ answerMessageId: one.id });
	});

	it('a request naming no message asks whether the question waits and gives its rules, with no look-up', async () => {
		const parameters = ask();
		const { link } = await asked(parameters);
		const before = h.sandbox.calls().length;
		const { result, status, body } = await offer(parameters, link);
		expect(result).toEqual({ noWebhookResponse: true });
		expect(status).toBe(200);
		expect(JSON.parse(body ?? '')).toMatchObject({
			answered: false,
			waiting: true,
			rules: { rules: { kind: 'approval' }, groupNumbers: [] },
		});
		expect(h.sandbox.calls().length).toBe(before);
	});

	it('one reply offered twice (n8n 1.x resumes twice when asked twice) resumes once; the copy is told it was the answer (issue 43, finding 7)', async () => {
		const parameters = ask();
		const { link } = await asked(parameters);
		const one = reply('1');
		const [first, second] = await Promise.all([
			offer(parameters, link, one.id),
			offer(parameters, link, one.id),
		]);
		const resumed = [first, second].filter((copy) => copy.result.workflowData !== undefined);
		expect(resumed).toHaveLength(1);
		const copy = first.result.workflowData ? second : first;
		expect(JSON.parse(copy.body ?? '')).toEqual({ answered: true, messageId: one.id });
	});

	it('decides within the offer’s budget: a look-up and a read that take longer resume nothing and say 503 (issue 43, finding 9)', async () => {
		const parameters = ask();
		const { link } = await asked(parameters);
		const answer = reply('1');
		h.sandbox.faults.add({ tool: 'get_send_status', kind: 'delay', delayMs: 3000 });
		h.sandbox.faults.add({ tool: 'get_messages', kind: 'delay', delayMs: 1000 });
		const { result, status, body } = await offer(parameters, link, answer.id);
		expect(result.workflowData).toBeUndefined();
		expect(status).toBe(503);
		expect(JSON.parse(body ?? '')).toMatchObject({ answered: false });
	});

	it('says 503 when the service cannot be read, so the trigger hands the reply back instead of passing it on', async () => {
		const parameters = ask();
		const { link } = await asked(parameters);
		const answer = reply('1');
		h.sandbox.faults.add({ tool: 'get_messages', kind: 'toolError503', times: 100 });
		const { result, status, body } = await offer(parameters, link, answer.id);
		expect(result).toEqual({ noWebhookResponse: true });
		expect(status).toBe(503);
		expect(JSON.parse(body ?? '')).toMatchObject({ answered: false });
	});

	it('who: the account’s own messages never answer, nor a message of another chat or one not saved', async () => {
		const parameters = ask();
		const { link } = await asked(parameters);
		const other = reply('1', { from: DEMO.bob });
		h.sandbox.clock.advance(1000);
		const own = h.sandbox.inject.injectMessage({ from: DEMO.alice, fromMe: true, text: '1' });
		for (const messageId of ['forged-id', other.id, own.message.id]) {
			const { result, body } = await offer(parameters, link, messageId);
			expect({ messageId, result, body }).toEqual({
				messageId,
				result: { noWebhookResponse: true },
				body: JSON.stringify({ answered: false }),
			});
		}
	});

	it('free text: the first message that can answer the question is the answer, its text in data.text', async () => {
		const parameters = ask({ responseType: 'freeText' });
		const { link } = await asked(parameters);
		const first = reply('Only half, please');
		const second = reply('thanks');
		expect((await offer(parameters, link, second.id)).result.workflowData).toBeUndefined();
		const { result } = await offer(parameters, link, first.id);
		expect(result.workflowData?.[0]?.[0]?.json.data).toMatchObject({
			text: 'Only half, please',
			answeredIn: 'chat',
		});
	});

	it('free text: a later reply quoting the question answers it', async () => {
		const parameters = ask({ responseType: 'freeText' });
		const { link, questionId } = await asked(parameters);
		reply('one moment');
		const quoting = reply('Make it 20 €', { quotedMessageId: questionId });
		const { result } = await offer(parameters, link, quoting.id);
		expect(result.workflowData?.[0]?.[0]?.json.data).toMatchObject({ text: 'Make it 20 €' });
	});

	it('wait limit: a reply written after Limit Wait Time (the limit in the link) answers nothing', async () => {
		const parameters = ask();
		const { link } = await asked(parameters);
		const answer = reply('1');
		const limited = (until: number) => {
			const url = new URL(link);
			url.searchParams.set('until', String(until));
			return url.toString();
		};
		const written = Date.parse(answer.timestamp);
		const late = await offer(parameters, limited(written - 1), answer.id);
		expect(late.result).toEqual({ noWebhookResponse: true });
		const inTime = await offer(parameters, limited(written), answer.id);
		expect(inTime.result.workflowData?.[0]?.[0]?.json.data).toMatchObject({ approved: true });
	});

	it('with Answer in Chat off, a named reply answers nothing', async () => {
		const parameters = ask();
		const { link } = await asked(parameters);
		const answer = reply('1');
		const { result, body } = await offer({ ...parameters, answerInChat: false }, link, answer.id);
		expect(result).toEqual({ noWebhookResponse: true });
		expect(body).toBe(JSON.stringify({ answered: false }));
	});

	it.each([
		['approval', {}],
		['approval', undefined],
		['freeText', undefined],
	])(
		'a %s POST without a named reply (body %j) keeps the link rules: nothing recorded',
		async (responseType, requestBody) => {
			const parameters = { ...ask(), responseType };
			const { link } = await asked(parameters);
			reply('1');
			const { result, body } = await callWaitingWebhook(h.engine, actionNode({ parameters }), {
				method: 'POST',
				url: link,
				body: requestBody,
			});
			expect(result).toEqual({ noWebhookResponse: true });
			expect(body).toContain('Nothing was recorded.');
		},
	);
});
