import { randomUUID } from 'node:crypto';
import { ErrorReporter } from 'n8n-core';
import type { IDataObject, INode } from 'n8n-workflow';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';

import { MessagingAutomationApi } from '../../../credentials/MessagingAutomationApi.credentials';
import { MessagingAutomationChatMemory } from '../../../nodes/MessagingAutomationChatMemory/MessagingAutomationChatMemory.node';
import { DEMO, SandboxClock, startSandbox, type SandboxHandle } from '../../sandbox';
import { N8nEngine, START_NODE_TYPE, type TestWorkflow } from '../../support/n8nEngine';
import { AGENT_TYPE, AgentStandIn, type RememberedMessage } from './agentStandIn';

const DANA = { phone: '4915198765433', name: 'Dana' };

function workflow(memoryParameters: INode['parameters'] = {}): TestWorkflow {
	const node = (name: string, type: string, parameters: INode['parameters'] = {}): INode => ({
		id: name,
		name,
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	});
	return {
		nodes: [
			node('Start', START_NODE_TYPE),
			node('Agent', AGENT_TYPE),
			{
				...node('Chat Memory', 'messagingAutomationChatMemory', {
					conversationId: '={{ $json.conversation_id }}',
					currentMessageIds: '={{ $json.message_ids ?? $json.message_id ?? $json.id }}',
					contextWindowLength: 5,
					...memoryParameters,
				}),
				credentials: { messagingAutomationApi: { id: 'cred-1', name: 'Sandbox' } },
			},
		],
		connections: {
			Start: { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
			'Chat Memory': { ai_memory: [[{ node: 'Agent', type: 'ai_memory', index: 0 }]] },
		},
	};
}

describe('Messaging Automation Chat Memory, in n8n’s engine under a stand-in Agent', () => {
	let sandbox: SandboxHandle;
	let engine: N8nEngine;

	beforeAll(async () => {
		// The clock stands still and is moved by hand: each message a second after the last.
		sandbox = await startSandbox({ clock: new SandboxClock({ speed: 0 }) });
		engine = new N8nEngine({
			nodeTypes: {
				messagingAutomationChatMemory: new MessagingAutomationChatMemory(),
				[AGENT_TYPE]: new AgentStandIn(),
			},
			credentialTypes: [new MessagingAutomationApi()],
			credentials: {
				messagingAutomationApi: {
					apiKey: sandbox.apiKey,
					baseUrl: sandbox.url,
					authScheme: 'bearer',
				},
			},
		});
	});
	afterAll(async () => await sandbox?.stop());
	beforeEach(() => sandbox.reset());

	function say(
		text: string,
		options: { fromMe?: boolean; from?: typeof DANA; group?: string } = {},
	) {
		sandbox.clock.advance(1000);
		const { message } = sandbox.inject.injectMessage({
			channel: options.group ? 'qr' : 'business',
			from: options.from ?? DANA,
			text,
			fromMe: options.fromMe,
			group: options.group,
		});
		return message as { id: string; conversation_id: string };
	}

	/** What the bot sends through the API, as the Reply tool does. */
	async function botSends(text: string) {
		sandbox.clock.advance(1000);
		const answer = await fetch(`${sandbox.url}/api/v1/tools/send_message`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${sandbox.apiKey}`,
				'content-type': 'application/json',
				'idempotency-key': randomUUID(),
			},
			body: JSON.stringify({ channel: 'business', phoneNumber: DANA.phone, text }),
		});
		expect(answer.status).toBe(200);
	}

	async function agentRun(json: IDataObject, memoryParameters = {}) {
		const run = await engine.run(workflow(memoryParameters), { node: 'Start', items: [{ json }] });
		const [item] = run.output('Agent');
		return {
			run,
			remembered: (item?.json.remembered ?? []) as unknown as RememberedMessage[],
			reads: sandbox.calls().filter((call) => call.tool === 'get_messages').length,
		};
	}

	it('remembers the person, the bot and staff in order, without the run’s own burst, from one read', async () => {
		const first = say('conv-mem: do you ship to Spain?');
		await botSends('Yes, we ship to Spain.');
		say('A colleague will check your order.', { fromMe: true });
		const burst = [say('hi again'), say('order 4411, where is it?')];

		const { run, remembered, reads } = await agentRun({
			conversation_id: first.conversation_id,
			message_ids: burst.map((message) => message.id),
			message_id: burst[1].id,
			text: 'hi again\norder 4411, where is it?',
		});

		expect(run.error).toBeUndefined();
		expect(remembered).toEqual([
			{ role: 'human', text: 'conv-mem: do you ship to Spain?' },
			{ role: 'ai', text: 'Yes, we ship to Spain.' },
			{ role: 'ai', text: 'A colleague will check your order.' },
		]);
		// n8n asks the history again after saving, to log it: still the one read.
		expect(reads).toBe(1);
		expect(sandbox.inject.sends().filter((send) => send.text?.startsWith('answer to'))).toEqual([]);
	});

	it('holds the last interactions of the context window (two messages each)', async () => {
		const earlier = Array.from({ length: 7 }, (_, index) => say(`earlier ${index}`));
		const current = say('and now?');
		const { remembered } = await agentRun(
			{ conversation_id: current.conversation_id, message_id: current.id, id: 'evt_x' },
			{ contextWindowLength: 2 },
		);
		expect(remembered.map((message) => message.text)).toEqual([
			'earlier 3',
			'earlier 4',
			'earlier 5',
			'earlier 6',
		]);
		expect(earlier).toHaveLength(7);
	});

	it('reads an older page only when the window reaches past the newest one', async () => {
		for (let index = 0; index < 120; index++) say(`m${index}`);
		const current = say('now');
		const { remembered, reads } = await agentRun(
			{ conversation_id: current.conversation_id, message_id: current.id },
			{ contextWindowLength: 50 },
		);
		expect(remembered).toHaveLength(100);
		expect(remembered[0].text).toBe('m20');
		expect(remembered.at(-1)?.text).toBe('m119');
		expect(reads).toBe(2);
	});

	it('names each member in a group', async () => {
		const group = DEMO.adminGroup.jid;
		say('lunch at noon?', { from: { phone: DEMO.alice.phone, name: DEMO.alice.name }, group });
		say('count me in', { from: { phone: DEMO.bob.phone, name: DEMO.bob.name }, group });
		const current = say('where?', { from: { phone: DEMO.bob.phone, name: DEMO.bob.name }, group });
		const { remembered } = await agentRun(
			{ conversation_id: group, message_id: current.id },
			{ contextWindowLength: 1 },
		);
		expect(remembered).toEqual([
			{ role: 'human', text: `${DEMO.alice.name}: lunch at noon?` },
			{ role: 'human', text: `${DEMO.bob.name}: count me in` },
		]);
	});

	/**
	 * n8n hands a failed sub-node's error to its error reporter, which without Sentry logs it with its
	 * stack: the next two tests fail the memory on purpose, so they check that report instead of
	 * printing what reads like a crash.
	 */
	function errorsReportedByN8n() {
		const spy = vi.spyOn(ErrorReporter.prototype, 'error').mockImplementation(() => undefined);
		onTestFinished(() => spy.mockRestore());
		return () => spy.mock.calls.map(([error]) => (error as Error).name);
	}

	it('says why on the memory node when the conversation cannot be read, and the Agent does not run on a partial memory', async () => {
		const reported = errorsReportedByN8n();
		const current = say('hello?');
		sandbox.faults.add({ tool: 'get_messages', kind: 'toolError422' });
		const { run } = await agentRun({
			conversation_id: current.conversation_id,
			message_id: current.id,
		});
		expect(run.error?.message).toMatch(
			new RegExp(`^Could not read conversation ${current.conversation_id}: .+`),
		);
		expect(run.nodeError('Chat Memory')?.message).toMatch(/^Could not read conversation/);
		expect(reported()).toEqual(['NodeOperationError']);
	});

	it('refuses a run whose own message is not in the conversation, rather than repeat it', async () => {
		const reported = errorsReportedByN8n();
		const current = say('hello?');
		const { run } = await agentRun({
			conversation_id: current.conversation_id,
			message_id: 'msg_elsewhere',
		});
		expect(run.error?.message).toBe(
			`Message msg_elsewhere is not among the last 1 messages of conversation ${current.conversation_id}`,
		);
		expect(reported()).toEqual(['NodeOperationError']);
	});
});
