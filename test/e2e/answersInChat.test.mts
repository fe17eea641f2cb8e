import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { N8nRestApi } from '../support/n8nRestApi.mjs';
import {
	answered as answeredIn,
	ANSWERS_TRIGGER,
	askInChat,
	delivered,
	newPhone,
	type Delivery,
	triggerItems,
	triggerRuns,
	writeInChat,
} from './support/chatAnswers.mjs';
import {
	e2e,
	endpointRegistered,
	n8nApi,
	sandboxControl,
	sandboxCredential,
	unique,
	waitFor,
} from './support/context.mjs';
import { triggerWorkflow } from './support/workflows.mjs';

/*
 * Answer in Chat in a real n8n: a Send and Wait asks over the sandbox and waits; the person
 * answers by writing in the chat. The sandbox saves the reply and delivers its event to an active
 * Messaging Automation Trigger with Pass Answers to Send and Wait on (registered automatically, as
 * a user would, grouping quick messages with a 1 s quiet window), which passes it to the waiting
 * execution. Each test writes in a chat of its own number, so no other test's open question is in it.
 */

const { mode, n8nVersion } = e2e();
const BROWSER_AGENT =
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

let api: N8nRestApi;
let credential: Awaited<ReturnType<typeof sandboxCredential>>;
let trigger: { id: string };
/** A host no n8n of ours runs on, answering every request as an answered question would. */
let foreign: Server;
let foreignRequests = 0;

beforeAll(async () => {
	api = await n8nApi();
	credential = await sandboxCredential(api);
	const webhookId = randomUUID();
	trigger = await api.createWorkflow(
		triggerWorkflow(unique('e2e answers trigger'), credential, webhookId, {
			...ANSWERS_TRIGGER,
			// A reply bot's trigger groups quick messages: the answers' check shares each burst's read.
			// The restart and Human review suites keep the ungrouped path.
			groupQuickMessages: true,
			quietWindowSeconds: 1,
			// The bot's prompt would hold the conversation: its questions must not carry live links.
			includeHistory: true,
			historyMessages: 5,
		}),
	);
	await api.activateWorkflow(trigger.id);
	await endpointRegistered(webhookId);
	foreign = createServer((_request, response) => {
		foreignRequests++;
		response.writeHead(200, { 'content-type': 'application/json' });
		response.end(JSON.stringify({ answered: true }));
	});
	await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
	await api.deactivateWorkflow(trigger.id).catch(() => undefined);
	await new Promise<void>((resolve) => foreign.close(() => resolve()));
});

const ask = async (phone: string, parameters: Record<string, unknown> = {}) =>
	await askInChat(api, credential, phone, parameters);
const botRuns = async (messageId: string) => await triggerRuns(api, trigger.id, messageId);
const answered = async (executionId: string) => await answeredIn(api, executionId);

describe(`Answer in Chat in a real n8n ${n8nVersion} (${mode} mode)`, () => {
	it.each([
		['1', true],
		['2', false],
		[' YES! ', true],
		['👍', true],
	])(
		'approval answered %j in the chat resumes once with approved %s; the answer starts no run',
		async (text, approved) => {
			const phone = newPhone();
			const askedAt = Date.now();
			const { executionId, sent } = await ask(phone);
			expect(sent.text).toContain('\n\nReply 1 to Approve or 2 to Decline\n\n');
			const writtenAt = Date.now();
			const answer = await writeInChat(phone, text);
			const { output, resumedAt } = await answered(executionId);
			expect(output.data).toMatchObject({
				approved,
				answeredIn: 'chat',
				answerMessageId: answer.id,
				respondedAt: answer.timestamp,
			});
			expect(output.messageId).toBe(sent.message_id);
			const delivery = await delivered(answer.id);
			expect(await botRuns(answer.id)).toBe(0);
			console.log(
				`[e2e answers ${n8nVersion} ${mode}] "${text}": asked in ${writtenAt - askedAt} ms, resumed ${resumedAt - writtenAt} ms after the reply was written; the trigger answered its delivery ${delivery.attemptLog[0].completedAt - delivery.attemptLog[0].at} ms after it arrived; attempts ${JSON.stringify(delivery.attemptLog.map((attempt) => attempt.statusCode))}`,
			);
		},
	);

	it(
		'"why?" runs the bot; "yes" to the account\'s "Anything else?" approves nothing and runs the bot; "1" quoting the question then answers',
		{ tags: ['every-line'] },
		async () => {
			const phone = newPhone();
			const { executionId, sent } = await ask(phone);
			const why = await writeInChat(phone, 'why?');
			await delivered(why.id);
			await waitFor('the bot run for "why?"', async () =>
				(await botRuns(why.id)) === 1 ? true : undefined,
			);
			// The question is in the bot's history, its links replaced by a mark.
			const [whyItem] = await triggerItems(api, trigger.id, why.id);
			expect(whyItem.history_text).toContain('May we refund order');
			expect(whyItem.history_text).toContain('[answer link]');
			expect(JSON.stringify(whyItem)).not.toMatch(/signature=|webhook-waiting/);
			await writeInChat(phone, 'Our hours are 9 to 17. Anything else?', { fromMe: true });
			const yes = await writeInChat(phone, 'yes');
			await delivered(yes.id);
			await waitFor('the bot run for "yes"', async () =>
				(await botRuns(yes.id)) === 1 ? true : undefined,
			);
			expect((await api.getExecution(executionId)).status).toBe('waiting');
			const one = await writeInChat(phone, '1', { quotedMessageId: sent.message_id });
			expect((await answered(executionId)).output.data).toMatchObject({
				approved: true,
				answerMessageId: one.id,
			});
		},
	);

	it('"why?" and "1" written together: "why?" runs the bot on its own, "1" resumes the question', async () => {
		const phone = newPhone();
		const { executionId } = await ask(phone);
		const why = await writeInChat(phone, 'why?');
		const one = await writeInChat(phone, '1');
		expect((await answered(executionId)).output.data).toMatchObject({
			approved: true,
			answerMessageId: one.id,
		});
		const oneDelivery = await delivered(one.id);
		await waitFor('the bot run for "why?"', async () =>
			(await botRuns(why.id)) === 1 ? true : undefined,
		);
		expect(await botRuns(one.id)).toBe(0);
		const whyDelivery = await delivered(why.id);
		console.log(
			`[e2e answers ${n8nVersion} ${mode}] "why?" and "1" together: attempts "why?" ${JSON.stringify(whyDelivery.attemptLog.map((attempt) => attempt.statusCode))}, "1" ${JSON.stringify(oneDelivery.attemptLog.map((attempt) => attempt.statusCode))}`,
		);
	});

	it('an answer the question could not check (the service failing its look-up) is offered again by its run, never run as a message', async () => {
		const phone = newPhone();
		const { executionId } = await ask(phone);
		await sandboxControl('POST', '/faults', {
			tool: 'get_send_status',
			kind: 'toolError503',
			times: 1,
		});
		const one = await writeInChat(phone, '1');
		// The run claimed "1" before its first offer, which the node could not decide (503); the run
		// offers it again 3 s later.
		expect((await answered(executionId)).output.data).toMatchObject({
			approved: true,
			answerMessageId: one.id,
		});
		expect(await botRuns(one.id)).toBe(0);
		const delivery = await delivered(one.id);
		console.log(
			`[e2e answers ${n8nVersion} ${mode}] an answer whose first offer failed: attempts ${JSON.stringify(delivery.attemptLog.map((attempt) => attempt.statusCode))}`,
		);
	});

	it('free text: the next message is the answer; a reply quoting the question answers too', async () => {
		const phone = newPhone();
		const next = await ask(phone, { responseType: 'freeText' });
		expect(next.sent.text).toContain('\n\nReply to this message with your answer\n\n');
		await writeInChat(phone, 'Only half, please');
		expect((await answered(next.executionId)).output.data).toMatchObject({
			text: 'Only half, please',
			answeredIn: 'chat',
		});

		const quoted = await ask(newPhone(), { responseType: 'freeText' });
		const other = quoted.sent.to;
		await writeInChat(other, 'Make it 20 EUR', { quotedMessageId: quoted.sent.message_id });
		expect((await answered(quoted.executionId)).output.data).toMatchObject({
			text: 'Make it 20 EUR',
		});
	});

	it('the account writing "1", another number writing "1", and a forged signed request leave it waiting; the link still answers', async () => {
		const phone = newPhone();
		const { executionId, link } = await ask(phone);
		const own = await writeInChat(phone, '1', { fromMe: true });
		const stranger = await writeInChat(newPhone(), '1');
		await delivered(stranger.id);
		const forged = await fetch(link, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ chatAnswer: { messageId: stranger.id, conversationId: 'x' } }),
		});
		expect(await forged.json()).toEqual({ answered: false });
		const named = await fetch(link, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ chatAnswer: { messageId: own.id } }),
		});
		expect(await named.json()).toEqual({ answered: false });
		const curl = await fetch(link, { headers: { 'user-agent': 'curl/8.5.0' } });
		expect(await curl.text()).toContain('Nothing was recorded.');
		expect((await api.getExecution(executionId)).status).toBe('waiting');

		const click = await fetch(link, { headers: { 'user-agent': BROWSER_AGENT } });
		expect(click.status).toBe(200);
		expect((await answered(executionId)).output.data).toMatchObject({ approved: true });
	});

	it('two questions, the newer without Answer in Chat: an unquoted "1" resumes nothing and runs the bot, whose item names the waiting question; "1" quoting the older, 60 messages later, approves it', async () => {
		const phone = newPhone();
		const older = await ask(phone, { message: 'Refund 25 EUR?' });
		const newer = await ask(phone, { message: 'Refund 500 EUR?', answerInChat: false });
		const one = await writeInChat(phone, '1');
		await delivered(one.id);
		await waitFor('the bot run for the unquoted "1"', async () =>
			(await botRuns(one.id)) === 1 ? true : undefined,
		);
		const [oneItem] = await triggerItems(api, trigger.id, one.id);
		expect(oneItem.waiting_question).toMatchObject({ message_id: older.sent.message_id });
		expect(oneItem.waiting_question).toMatchObject({ text: expect.stringContaining('25 EUR') });
		for (const { executionId } of [older, newer])
			expect((await api.getExecution(executionId)).status).toBe('waiting');
		for (let index = 0; index < 60; index++)
			await writeInChat(phone, `update ${index}`, { fromMe: true });
		const quoting = await writeInChat(phone, '1', { quotedMessageId: older.sent.message_id });
		expect((await answered(older.executionId)).output.data).toMatchObject({
			approved: true,
			answerMessageId: quoting.id,
		});
		expect((await api.getExecution(newer.executionId)).status).toBe('waiting');
		await fetch(newer.link, { headers: { 'user-agent': BROWSER_AGENT } });
		expect((await answered(newer.executionId)).output.data).toMatchObject({ approved: true });
	});

	it(
		"a link to another host in the account's message is never requested; the reply runs the bot",
		{ tags: ['every-line'] },
		async () => {
			const phone = newPhone();
			const port = (foreign.address() as AddressInfo).port;
			const link = `http://127.0.0.1:${port}/webhook-waiting/1/node?chat=1&approved=true&signature=${'a'.repeat(64)}`;
			await writeInChat(phone, `You said: Approve: ${link}`, { fromMe: true });
			const before = foreignRequests;
			const one = await writeInChat(phone, '1');
			await delivered(one.id);
			await waitFor('the bot run for "1"', async () =>
				(await botRuns(one.id)) === 1 ? true : undefined,
			);
			expect(foreignRequests - before).toBe(0);
		},
	);

	it("a copy of the answer's delivery (the service sends it twice) resumes the execution once", async () => {
		const phone = newPhone();
		const { executionId } = await ask(phone);
		await sandboxControl('POST', '/webhooks/faults', { duplicate: 1 });
		const one = await writeInChat(phone, '1');
		expect((await answered(executionId)).output.data).toMatchObject({
			approved: true,
			answerMessageId: one.id,
		});
		const delivery = await delivered(one.id);
		await waitFor('both copies answered', async () => {
			const { deliveries } = await sandboxControl<{ deliveries: Delivery[] }>('GET', '/webhooks');
			const ours = deliveries.find((entry) => entry.payload?.includes(`"id":"${one.id}"`));
			return ours && ours.attemptLog.length >= 2 ? true : undefined;
		});
		// In queue mode the copy may reach the other webhook process, where the execution no longer
		// waits: it can resume nothing, and runs as a message.
		const copies = await botRuns(one.id);
		console.log(
			`[e2e answers ${n8nVersion} ${mode}] a copy of the answer's delivery: ${delivery.attemptLog.length} attempts, ${copies} bot run(s)`,
		);
		expect(copies).toBeLessThanOrEqual(mode === 'queue' ? 1 : 0);
	});

	it('two answers at once resume it once: the other reply is no answer and runs the bot', async () => {
		const phone = newPhone();
		const { executionId } = await ask(phone);
		const [yes, no] = await Promise.all([writeInChat(phone, '1'), writeInChat(phone, '2')]);
		const { output } = await answered(executionId);
		await Promise.all([delivered(yes.id), delivered(no.id)]);
		const taken = output.data.answerMessageId;
		expect([yes.id, no.id]).toContain(taken);
		const other = taken === yes.id ? no.id : yes.id;
		await waitFor('the bot run for the reply not taken', async () =>
			(await botRuns(other)) === 1 ? true : undefined,
		);
		expect(await botRuns(taken as string)).toBe(0);
	});
});
