import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionError, nodeOutput, type N8nRestApi } from '../support/n8nRestApi.mjs';
import {
	e2e,
	endpointRegistered,
	n8nApi,
	sandboxControl,
	sandboxCredential,
	unique,
	waitFor,
} from './support/context.mjs';
import { askAndWait } from './support/sendAndWait.mjs';
import { triggerWorkflow } from './support/workflows.mjs';

/*
 * Answer in Chat in a real n8n: a Send and Wait asks over the sandbox and waits; the person
 * answers by writing in the chat. The sandbox saves the reply and delivers its event to an active
 * Messaging Automation Trigger with Pass Answers to Send and Wait on (registered automatically, as
 * a user would), which passes it to the waiting execution. Each test writes in a chat of its own
 * number, so no other test's open question is in it.
 */

const { mode, n8nVersion } = e2e();
const BROWSER_AGENT =
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

interface Delivery {
	status: string;
	payload: string | null;
	attemptLog: Array<{ at: number; completedAt: number; statusCode: number | null }>;
}

let api: N8nRestApi;
let credential: Awaited<ReturnType<typeof sandboxCredential>>;
let trigger: { id: string };
let phones = 0;
const newPhone = () => `4916${String(randomInt(1e6)).padStart(6, '0')}${++phones}`;

beforeAll(async () => {
	api = await n8nApi();
	credential = await sandboxCredential(api);
	const webhookId = randomUUID();
	trigger = await api.createWorkflow(
		triggerWorkflow(unique('e2e answers trigger'), credential, webhookId, {
			registration: 'auto',
			events: ['message.received'],
			answersToSendAndWait: true,
		}),
	);
	await api.activateWorkflow(trigger.id);
	await endpointRegistered(webhookId);
});

afterAll(async () => {
	await api.deactivateWorkflow(trigger.id).catch(() => undefined);
});

/** Asks `phone` and resolves once the execution waits, with the question as sent. */
async function ask(phone: string, parameters: Record<string, unknown> = {}) {
	const message = `May we refund order ${randomInt(100_000, 999_999)}?`;
	const { executionId, sent } = await askAndWait(api, credential, 'e2e answer in chat', {
		phoneNumber: phone,
		message,
		answerInChat: true,
		approvalOptions: { values: { approvalType: 'double' } },
		...parameters,
	});
	return { executionId, sent, link: /https?:\/\/\S+/.exec(sent.text)?.[0] as string };
}

/** The person (or, `fromMe`, the account) writes in `phone`'s chat; the saved message. */
async function write(phone: string, text: string, extra: Record<string, unknown> = {}) {
	const { saved, message } = await sandboxControl<{
		saved: boolean;
		message: { id: string; timestamp: string };
	}>('POST', '/inject/message', { from: { phone, name: 'Manager' }, text, ...extra });
	expect(saved).toBe(true);
	return message;
}

/** The delivery of the event of message `messageId`, once the trigger answered it. */
async function delivered(messageId: string): Promise<Delivery> {
	return await waitFor(`the delivery of ${messageId} to be answered`, async () => {
		const { deliveries } = await sandboxControl<{ deliveries: Delivery[] }>('GET', '/webhooks');
		return deliveries.find(
			(delivery) =>
				delivery.payload?.includes(`"id":"${messageId}"`) && delivery.status === 'delivered',
		);
	});
}

/** Trigger runs that hold the message `messageId`. */
async function botRuns(messageId: string): Promise<number> {
	const executions = await api.listExecutions(trigger.id);
	let count = 0;
	for (const listed of executions) {
		const execution = await api.getExecution(listed.id);
		if ((nodeOutput(execution, 'Trigger') ?? []).some((json) => json.message_id === messageId))
			count++;
	}
	return count;
}

async function answered(executionId: string) {
	const execution = await api.waitForExecution(executionId, 60_000);
	expect(executionError(execution)).toBeUndefined();
	const runs = (
		execution.data as { resultData?: { runData?: Record<string, Array<{ startTime: number }>> } }
	).resultData?.runData?.Action;
	return {
		output: nodeOutput(execution, 'Action')?.[0] as {
			data: Record<string, unknown>;
			messageId?: string;
		},
		/** When the node ran again (n8n keeps only the resumed run). */
		resumedAt: runs?.at(-1)?.startTime ?? Number.NaN,
	};
}

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
			const { executionId, sent } = await ask(phone);
			expect(sent.text).toContain('\n\nReply 1 to Approve or 2 to Decline\n\n');
			const writtenAt = Date.now();
			const answer = await write(phone, text);
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
				`[e2e answers ${n8nVersion} ${mode}] "${text}": resumed ${resumedAt - writtenAt} ms after the reply was written; the trigger answered its delivery ${delivery.attemptLog[0].completedAt - delivery.attemptLog[0].at} ms after it arrived`,
			);
		},
	);

	it('"why?" runs the bot and leaves the question open; "1" then answers', async () => {
		const phone = newPhone();
		const { executionId } = await ask(phone);
		const why = await write(phone, 'why?');
		await delivered(why.id);
		await waitFor('the bot run for "why?"', async () =>
			(await botRuns(why.id)) === 1 ? true : undefined,
		);
		expect((await api.getExecution(executionId)).status).toBe('waiting');
		const one = await write(phone, '1');
		expect((await answered(executionId)).output.data).toMatchObject({
			approved: true,
			answerMessageId: one.id,
		});
	});

	it('free text: the next message is the answer; a reply quoting the question answers too', async () => {
		const phone = newPhone();
		const next = await ask(phone, { responseType: 'freeText' });
		expect(next.sent.text).toContain('\n\nReply to this message with your answer\n\n');
		await write(phone, 'Only half, please');
		expect((await answered(next.executionId)).output.data).toMatchObject({
			text: 'Only half, please',
			answeredIn: 'chat',
		});

		const quoted = await ask(newPhone(), { responseType: 'freeText' });
		const other = quoted.sent.to;
		await write(other, 'Make it 20 EUR', { quotedMessageId: quoted.sent.message_id });
		expect((await answered(quoted.executionId)).output.data).toMatchObject({
			text: 'Make it 20 EUR',
		});
	});

	it('the account writing "1", another number writing "1", and a forged signed request leave it waiting; the link still answers', async () => {
		const phone = newPhone();
		const { executionId, link } = await ask(phone);
		const own = await write(phone, '1', { fromMe: true });
		const stranger = await write(newPhone(), '1');
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

	it('two answers at once resume it once: the other reply is no answer and runs the bot', async () => {
		const phone = newPhone();
		const { executionId } = await ask(phone);
		const [yes, no] = await Promise.all([write(phone, '1'), write(phone, '2')]);
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
