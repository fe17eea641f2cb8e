import type {
	IAllExecuteFunctions,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
} from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MessagingAutomationApi } from '../../../../credentials/MessagingAutomationApi.credentials';
import { exchangeDeadline } from '../../../../nodes/shared/transport/authenticatedRequest';
import { DeadlineClock } from '../../../../nodes/shared/transport/deadline';
import { createHttpRequestTransport } from '../../../../nodes/shared/transport/httpRequestTransport';
import { N8nEngine, START_NODE_TYPE } from '../../../support/n8nEngine';
import { type ScriptedServer, startScriptedServer } from '../../../support/scriptedServer';

let server: ScriptedServer;

beforeAll(async () => {
	server = await startScriptedServer();
});
afterAll(async () => {
	await server.stop();
});

/** A node whose run sends one request through the API transport and outputs what came of it. */
const sender: INodeType = {
	description: {
		displayName: 'Sender',
		name: 'sender',
		group: ['transform'],
		version: 1,
		description: 'Sends one request',
		defaults: { name: 'Sender' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
		credentials: [{ name: 'messagingAutomationApi', required: true }],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const transport = await createHttpRequestTransport(this);
		const outcome = await transport({
			method: 'POST',
			path: '/api/v1/tools/x',
			body: {},
			timeoutMs: 300,
		}).then(
			(response) => ({ status: response.status, body: response.body }),
			(error: Error) => ({ error: error.name }),
		);
		return [[{ json: outcome as never }]];
	},
} as unknown as INodeType;

async function sendInAnExecution() {
	const engine = new N8nEngine({
		nodeTypes: { sender },
		credentialTypes: [new MessagingAutomationApi()],
		credentials: {
			messagingAutomationApi: {
				apiKey: 'mk_test_deadline_key',
				baseUrl: server.url,
				authScheme: 'bearer',
			},
		},
	});
	const nodes = [
		{
			id: 'start',
			name: 'Start',
			type: START_NODE_TYPE,
			typeVersion: 1,
			position: [0, 0] as [number, number],
			parameters: {},
		},
		{
			id: 'sender',
			name: 'Sender',
			type: 'sender',
			typeVersion: 1,
			position: [200, 0] as [number, number],
			parameters: {},
			credentials: { messagingAutomationApi: { id: 'c', name: 'Test' } },
		},
	];
	const run = await engine.run(
		{ nodes, connections: { Start: { main: [[{ node: 'Sender', type: 'main', index: 0 }]] } } },
		{ node: 'Start', items: [{ json: {} }] },
	);
	return run.output('Sender')[0]?.json;
}

describe('requests inside an execution', () => {
	it('are cut at the time-out though n8n puts the execution cancel signal on every authenticated request', async () => {
		// 40 bytes at one per 50 ms take 2 s; each byte comes well inside the 300 ms time-out.
		server.script([{ drip: { everyMs: 50, body: { ok: true, padding: 'x'.repeat(20) } } }]);
		expect(await sendInAnExecution()).toEqual({ error: 'TimeoutError' });
		server.script([{ status: 200, body: { ok: true } }]);
		expect(await sendInAnExecution()).toEqual({ status: 200, body: { ok: true } });
	});
});

describe('exchangeDeadline', () => {
	const clock = { now: () => 0, sleep: async () => await new Promise<void>(() => {}) };

	it('stops the exchange when the execution is cancelled, and lets go of the cancel signal once done', () => {
		const cancel = new AbortController();
		const context = {
			getExecutionCancelSignal: () => cancel.signal,
		} as unknown as IAllExecuteFunctions;
		const exchange = exchangeDeadline(context, new DeadlineClock(clock).start(1_000));
		cancel.abort();
		expect(exchange.signal.aborted).toBe(true);

		const later = new AbortController();
		const done = exchangeDeadline(
			{ getExecutionCancelSignal: () => later.signal } as unknown as IAllExecuteFunctions,
			new DeadlineClock(clock).start(1_000),
		);
		done.done();
		later.abort();
		expect(done.signal.aborted).toBe(false);
	});

	it('is the deadline itself where there is no execution to cancel (editor look-ups)', () => {
		const deadline = new DeadlineClock(clock).start(1_000);
		expect(exchangeDeadline({} as IAllExecuteFunctions, deadline)).toBe(deadline);
	});
});
