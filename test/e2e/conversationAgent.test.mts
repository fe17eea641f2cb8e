import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleWorkflows, NODE_TYPES, upsertCredential, withCredential } from '../dev/stack.mjs';
import { replyBotPlan } from '../dev/replyBotModel.mjs';
import { nodeOutput, type N8nRestApi, type N8nWorkflow } from '../support/n8nRestApi.mjs';
import { e2e, n8nApi, sandboxControl, sandboxCredential, waitFor } from './support/context.mjs';
import { startScriptedModel, type ScriptedModel } from './support/scriptedModel.mjs';

/*
 * The AI reply bot example exactly as `npm run dev` imports it (trigger grouping quick messages →
 * AI Agent with the chat memory, on n8n 1.x with the history in its prompt → the node as its tool,
 * capped at 3 sends per execution), with n8n's OpenAI Chat Model pointed at the scripted model that
 * `npm run dev` uses too. Messages come in on Business from a number of their own, as the service
 * delivers them. Human takeover: the account's own pause command goes into the chat through
 * send_message, as the dashboard or the API would.
 */

const SENDER = '4915198765433';
/** The staff number the example's Notify Staff node writes to. */
const STAFF = '919876543210';
const EXAMPLE = 'ai-reply-bot';
const LOOP_CALLS = 6;
const CAP = 3;

interface Send {
	to: string;
	text: string;
}

describe('AI reply bot example: grouped turns with the earlier ones, and the send cap, in a real n8n', () => {
	let api: N8nRestApi;
	let model: ScriptedModel;
	let workflow: N8nWorkflow;
	const example = () => exampleWorkflows(e2e().filesDir)[EXAMPLE];
	const sendsTo = async (phone: string) =>
		(await sandboxControl<{ sends: Send[] }>('GET', '/sends')).sends.filter(
			(send) => send.to === phone,
		);
	const sendsToSender = async () => await sendsTo(SENDER);
	const executions = async () => api.listExecutions(workflow.id);

	async function say(text: string) {
		await sandboxControl('POST', '/inject/message', {
			channel: 'business',
			from: { phone: SENDER, name: 'Dana' },
			text,
		});
	}

	/** Waits until `count` executions have finished, then one quiet window more: nothing further may start. */
	async function finishedRuns(count: number) {
		await waitFor(`${count} finished runs`, async () => {
			const list = await executions();
			return list.length >= count &&
				list.every((execution) => !['running', 'new', 'waiting'].includes(execution.status))
				? true
				: undefined;
		});
		await new Promise((resolve) => setTimeout(resolve, 7_000));
		const list = await executions();
		expect(list).toHaveLength(count);
		expect(list.every((execution) => execution.status === 'success')).toBe(true);
		return list;
	}

	beforeAll(async () => {
		api = await n8nApi();
		model = await startScriptedModel((prompt, _api, earlier) =>
			prompt.includes('conv-e2e loop')
				? Array.from({ length: LOOP_CALLS }, (_, index) => ({ Text: `loop reply ${index}` }))
				: replyBotPlan(prompt, earlier),
		);
		const modelCredential = await upsertCredential(
			api,
			`e2e scripted model ${randomUUID()}`,
			{ apiKey: 'sk-scripted-model', url: model.url, header: false },
			'openAiApi',
		);
		workflow = await api.createWorkflow(
			withCredential(example(), await sandboxCredential(api), modelCredential),
		);
		await api.activateWorkflow(workflow.id);
		const webhookId = example().nodes.find((node) => node.webhookId)?.webhookId;
		await waitFor('the example to register its endpoint', async () => {
			const { endpoints } = await sandboxControl<{
				endpoints: Array<{ url: string; status: string }>;
			}>('GET', '/webhooks');
			return endpoints.find(
				(endpoint) =>
					endpoint.url === `${e2e().webhookBaseUrl}/webhook/${webhookId}/webhook` &&
					endpoint.status === 'active',
			);
		});
	});

	afterAll(async () => {
		if (workflow) await api.deactivateWorkflow(workflow.id).catch(() => undefined);
		await model?.stop();
	});

	it(
		'answers three quick messages once, the earlier exchange through the chat memory (n8n 2.x) or in the prompt (1.x)',
		{ tags: ['every-line'] },
		async () => {
			const earlier = 'conv-e2e earlier: do you ship to Spain?';
			await say(earlier);
			await finishedRuns(1);
			// The next turn is written a minute later (sandbox time): the first message is history now.
			await sandboxControl('POST', '/clock', { advanceMs: 60_000 });
			for (const text of ['hi again', 'I ordered yesterday', 'order 4411, where is it?'])
				await say(text);
			const [latest] = await finishedRuns(2);

			const run = await api.getExecution(latest.id);
			const [turn] = nodeOutput(run, 'On Incoming Messages') ?? [];
			expect(turn.messages.map((message: { text: string }) => message.text)).toEqual([
				'hi again',
				'I ordered yesterday',
				'order 4411, where is it?',
			]);
			const burst = 'hi again\nI ordered yesterday\norder 4411, where is it?';
			const asked = (text: string) =>
				model.requests.find(
					(request) => request.prompt.includes(text) && request.toolResults.length === 0,
				);
			const withMemory = example().nodes.some((node) => node.type === NODE_TYPES.memory);
			expect(withMemory).toBe(Number(e2e().n8nVersion.split('.')[0]) >= 2);
			if (withMemory) {
				// The prompt is the burst alone; the earlier exchange comes as chat turns, with roles.
				expect(asked(burst)?.prompt).toBe(burst);
				expect(asked(burst)?.earlier).toEqual([
					{ role: 'user', text: earlier },
					{ role: 'assistant', text: (await sendsToSender())[0].text },
				]);
				expect(asked(earlier)?.earlier).toEqual([]);
			} else {
				expect(asked(burst)?.prompt).toContain(burst);
				expect(asked(burst)?.prompt).toMatch(/\] Dana: conv-e2e earlier: do you ship to Spain\?/);
				expect(asked(burst)?.earlier).toEqual([]);
			}
			const replies = (await sendsToSender()).filter((send) => send.text.includes('order 4411'));
			expect(replies.map((send) => send.text)).toEqual([
				'(scripted model) You wrote: "hi again / I ordered yesterday / order 4411, where is it?". I can see 2 earlier messages of this chat.',
			]);
		},
	);

	it(`stops a model that keeps calling send at the example's cap: ${CAP} sent, the rest refused to the model`, async () => {
		await sandboxControl('POST', '/clock', { advanceMs: 60_000 });
		const before = (await executions()).length;
		await say('conv-e2e loop please');
		await finishedRuns(before + 1);
		const loopSends = (await sendsToSender()).filter((send) => send.text.startsWith('loop reply'));
		expect(loopSends.map((send) => send.text)).toEqual([
			'loop reply 0',
			'loop reply 1',
			'loop reply 2',
		]);
		const last = model.requests
			.filter((request) => request.prompt.includes('conv-e2e loop'))
			.at(-1);
		expect(last?.toolResults).toHaveLength(LOOP_CALLS);
		for (const refused of last?.toolResults.slice(CAP) ?? [])
			expect(refused).toContain('Not sent: this execution has already made 3 send calls');
	});

	/** The account's own message in the customer's chat, through the API (the dashboard's way too). */
	async function ownMessage(text: string) {
		// A second later than the last message, so the command is ordered after it.
		await sandboxControl('POST', '/clock', { advanceMs: 1000 });
		const sent = await fetch(`${e2e().sandboxUrl}/api/v1/tools/send_message`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${e2e().keys.owner}`,
				'content-type': 'application/json',
				'idempotency-key': randomUUID(),
			},
			body: JSON.stringify({ channel: 'business', phoneNumber: SENDER, text }),
		});
		expect(sent.status).toBe(200);
	}

	it('stays silent in a chat the account took over, or the customer handed to a person, and tells the staff number', async () => {
		const before = (await executions()).length;
		await ownMessage('/bot off');
		await say('conv-e2e takeover: is the parcel insured?');
		await finishedRuns(before + 1);
		await ownMessage('/bot on');
		await say('conv-e2e takeover: can I talk to a human?');
		await finishedRuns(before + 2);
		// A minute later, inside the pause, a message that asks for nothing: the note says since when the chat is paused.
		await sandboxControl('POST', '/clock', { advanceMs: 60_000 });
		await say('conv-e2e takeover: anyone?');
		await finishedRuns(before + 3);

		const replies = (await sendsToSender()).filter((send) =>
			send.text.includes('conv-e2e takeover'),
		);
		expect(replies).toEqual([]);
		const staff = (await sendsTo(STAFF)).filter((send) => send.text.includes('conv-e2e takeover'));
		expect(staff.map((send) => send.text)).toEqual([
			expect.stringMatching(
				/^A customer wrote in a chat paused since \d{4}-\d\d-\d\d \d\d:\d\d UTC, when you sent \/bot off \(Dana, .+\); the bot answers again at \d{4}-\d\d-\d\d \d\d:\d\d UTC, or when you send \/bot on:\nconv-e2e takeover: is the parcel insured\?$/,
			),
			expect.stringMatching(
				/^A customer asked for a person \(Dana, .+\); .+:\nconv-e2e takeover: can I talk to a human\?$/,
			),
			expect.stringMatching(
				/^A customer wrote in a chat paused since \d{4}-\d\d-\d\d \d\d:\d\d UTC, when they asked for a person \(Dana, .+\); the bot answers again at .+:\nconv-e2e takeover: anyone\?$/,
			),
		]);
	});
});
