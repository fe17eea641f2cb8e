import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DEMO } from '../../../../sandbox';
import { agentRun as runAgent, type AsAgentTool, modelCall, SEND } from '../../agentRun';
import { operationOf, useHarness } from '../../harness';

/* The node as an AI Agent's tool, in n8n's engine (../../agentRun). */

const h = useHarness();
const agentRun = (calls: IDataObject[], parameters?: INodeParameters, asAgentTool?: AsAgentTool) =>
	runAgent(h, calls, parameters, asAgentTool);

const toAlice = { Phone_Number: DEMO.alice.phone, Text: 'Your order shipped' };
const toBob = { Phone_Number: DEMO.bob.phone, Text: 'Your order is delayed' };
const sent = () =>
	h.sandbox.state.accounts
		.get(DEMO.accountId)
		?.messages.filter((message) => message.fromMe && message.idempotencyKey) ?? [];

describe('the node as an AI Agent tool', () => {
	it('sends two different messages of one agent run, each with a key of its own', async () => {
		const result = await agentRun([modelCall(toAlice), modelCall(toBob)]);
		expect(result.error).toBeUndefined();
		expect(result.calls.map((call) => [call.status, call.replayed])).toEqual([
			[200, false],
			[200, false],
		]);
		const [first, second] = result.calls.map((call) => call.idempotencyKey);
		expect(first).not.toBe(second);
		expect(first).toMatch(/^evt_agent_run_1:[A-Za-z0-9_-]{10}$/);
		expect(result.calls.map((call) => call.input)).toEqual([
			expect.objectContaining({ phoneNumber: DEMO.alice.phone, text: toAlice.Text }),
			expect.objectContaining({ phoneNumber: DEMO.bob.phone, text: toBob.Text }),
		]);
		expect(sent().map((message) => message.text)).toEqual([toAlice.Text, toBob.Text]);
	});

	it('sends an identical call repeated by the model once, also when the event runs again', async () => {
		const run = await agentRun([modelCall(toAlice), modelCall(toAlice)]);
		expect(run.calls.map((call) => call.replayed)).toEqual([false, true]);
		expect(run.json[1].message_id).toBe(run.json[0].message_id);
		// A second execution for the same event (a duplicate delivery, a rerun) derives the same key.
		const again = await agentRun([modelCall(toAlice)]);
		expect(again.calls[0]).toMatchObject({
			idempotencyKey: run.calls[0].idempotencyKey,
			replayed: true,
		});
		expect(sent()).toHaveLength(1);
	});

	it('without a trigger event, scopes the key to the agent run: repeated within it once, a new run sends anew', async () => {
		const chat = { chatInput: 'Tell Alice her order shipped', sessionId: 'session-1' };
		const first = await agentRun([modelCall(toAlice, chat), modelCall(toAlice, chat)]);
		expect(first.calls.map((call) => call.replayed)).toEqual([false, true]);
		expect(first.calls[0].idempotencyKey).toMatch(/^x-[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]{10}$/);
		const second = await agentRun([modelCall(toAlice, chat)]);
		expect(second.calls[0].idempotencyKey).not.toBe(first.calls[0].idempotencyKey);
		expect(sent()).toHaveLength(2);
	});

	it('keeps the key of a call the node retries after a time-out: sent once', async () => {
		h.sandbox.faults.add({ tool: 'send_message', kind: 'delay', delayMs: 1500 });
		const parameters = { ...SEND, options: { timeoutSeconds: 0.3 } };
		const result = await agentRun([modelCall(toBob)], parameters);
		expect(result.error).toBeUndefined();
		const sends = result.calls.filter((call) => call.tool === 'send_message');
		expect(sends.length).toBeGreaterThan(1);
		expect(new Set(sends.map((call) => call.idempotencyKey)).size).toBe(1);
		expect(sent()).toHaveLength(1);
	});

	it('names the parameter the model filled when its value is invalid, sends nothing, then sends the corrected call', async () => {
		const wrong = await agentRun([modelCall({ ...toAlice, Phone_Number: '+49 151 1234 5678' })]);
		expect(wrong.error?.message).toBe(
			'Invalid input: Phone_Number must be 7-15 digits, first digit not 0. Nothing was sent. Call this tool again with Phone_Number corrected.',
		);
		expect(wrong.calls).toEqual([]);
		const corrected = await agentRun([modelCall(toAlice)]);
		expect(corrected.calls.map((call) => call.status)).toEqual([200]);
		expect(sent()).toHaveLength(1);
	});

	it('answers the model with an error it can fix, also when On Error says Stop Workflow', async () => {
		const invalid = [modelCall({ ...toAlice, Phone_Number: '+49 151 1234 5678' })];
		for (const onError of [undefined, 'stopWorkflow'] as const) {
			const answered = await agentRun(invalid, SEND, { onError });
			expect(answered.error).toBeUndefined();
			expect(answered.json).toEqual([
				{
					error: expect.stringMatching(
						/^Invalid input: Phone_Number must be 7-15 digits.* Call this tool again with Phone_Number corrected\.$/,
					),
				},
			]);
			expect(answered.calls).toEqual([]);
			expect(answered.runFailed).toBe(false);
		}
		expect(sent()).toHaveLength(0);
	});

	it('fails the tool with its own error when no call can help (a revoked key), telling the model to stop', async () => {
		h.usePersona('revoked');
		try {
			const message =
				/^The API key was rejected .*credential\. No call of this tool can succeed until the owner of the workflow fixes this; stop calling it and tell the user\.$/;
			// At its defaults n8n 2.x hands the error to the model and marks the tool's run failed
			// (whether the run then fails is the AI Agent's part: test/e2e/agent.test.mts).
			const atDefaults = await agentRun([modelCall(toAlice)], SEND, {});
			expect(atDefaults.json).toEqual([{ error: expect.stringMatching(message) }]);
			expect(atDefaults.error?.message).toMatch(message);
			expect(atDefaults.error?.description).toContain('invalid_api_key');
			// With Stop Workflow the run itself fails with the node's error.
			const stopped = await agentRun([modelCall(toAlice)], SEND, { onError: 'stopWorkflow' });
			expect(stopped.error?.message).toMatch(message);
			expect(stopped.runFailed).toBe(true);
		} finally {
			h.usePersona('owner');
		}
		expect(sent()).toHaveLength(0);
	});

	it('says when the fault lies in the settings, not in what the model gave', async () => {
		const fixedText = { ...SEND, text: 'x'.repeat(5000) };
		const result = await agentRun([modelCall({ Phone_Number: DEMO.alice.phone })], fixedText);
		expect(result.error?.message).toMatch(
			/^Invalid input: Text must be 1-4096 characters\. Nothing was sent\. .*configuration/,
		);
		expect(result.calls).toEqual([]);
	});

	it('answers the model with compact output: no empty values', async () => {
		const health = { resource: 'businessAccount', operation: 'getHealth' };
		const raw = await h.run({ parameters: { ...health, simplify: false } });
		const asTool = await agentRun([modelCall({})], health);
		const campaign = await agentRun(
			[
				modelCall({
					Name: 'Autumn sale',
					Template_Name: 'order_update',
					Template_Language: 'en',
					Message_Limit: 10,
				}),
			],
			operationOf('create_campaign'),
		);
		const empties = (json: IDataObject | undefined) =>
			JSON.stringify(json ?? {}).match(/:(null|""|\[\]|\{\})/g) ?? [];
		expect(raw.error ?? asTool.error ?? campaign.error).toBeUndefined();
		expect(empties(raw.json[0]).length).toBeGreaterThan(0);
		expect(asTool.json[0]).toEqual(
			expect.objectContaining({ phone_quality: raw.json[0].phone_quality }),
		);
		expect(empties(asTool.json[0])).toEqual([]);
		expect(campaign.json[0]).toEqual(expect.objectContaining({ campaign_id: expect.any(String) }));
		expect(empties(campaign.json[0])).toEqual([]);
	});

	it('stops an agent that keeps sending at the Message Limit per Execution: the rest is refused to the model, nothing sent', async () => {
		const calls = Array.from({ length: 4 }, (_, index) =>
			modelCall({ ...toAlice, Text: `loop ${index}` }),
		);
		const run = await agentRun(calls, { ...SEND, agentSendLimit: 2 }, {});
		expect(run.error).toBeUndefined();
		expect(run.calls.filter((call) => call.tool === 'send_message')).toHaveLength(2);
		expect(sent().map((message) => message.text)).toEqual(['loop 0', 'loop 1']);
		for (const refused of run.json.slice(2)) {
			expect(String(refused?.error)).toBe(
				'Not sent: this execution has already made 2 send calls through this tool, and its Message Limit per Execution is 2. Do not call this tool again in this execution; finish without sending more messages.',
			);
		}
		// The allowance is per execution: the next one sends again.
		await agentRun(
			[modelCall({ ...toAlice, Text: 'next execution' })],
			{ ...SEND, agentSendLimit: 2 },
			{},
		);
		expect(sent()).toHaveLength(3);
	});

	it('allows 10 sends per execution by default, and any number with the limit set to 0', async () => {
		const toCarol = (index: number) =>
			modelCall({ Phone_Number: DEMO.carol.phone, Text: `update ${index}` });
		const business = { ...SEND, channel: 'business' };
		const capped = await agentRun(
			Array.from({ length: 12 }, (_, index) => toCarol(index)),
			business,
			{},
		);
		expect(capped.calls.filter((call) => call.tool === 'send_message')).toHaveLength(10);
		expect(
			capped.json.slice(10).every((json) => String(json?.error).startsWith('Not sent: ')),
		).toBe(true);
		const unlimited = await agentRun(
			Array.from({ length: 12 }, (_, index) => toCarol(100 + index)),
			{ ...business, agentSendLimit: 0 },
			{},
		);
		expect(unlimited.calls.filter((call) => call.tool === 'send_message')).toHaveLength(12);
	});
});
