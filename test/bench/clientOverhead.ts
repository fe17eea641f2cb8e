import { Agent, request } from 'undici';

import { MessagingClient } from '../../nodes/shared/client/client';
import { createUndiciTransport } from '../support/undiciTransport';
import type { SandboxProcess } from './sandboxProcess';
import { interleavedRounds, median, pairedRatio, perSecond, ratio } from './stats';
import type { MeasuredRow } from './table';

/*
 * Row 4: what the shared client adds per call (call planning, idempotency rules, response and
 * error mapping, the request loop) on top of the undici transport, against a bare undici
 * request for the same tool on the same keep-alive setup. Calls go one after another, so the
 * figure is per-call cost, not how many sockets the server can keep busy.
 */

const TOOL = 'get_account_context';
const TARGET = 0.9;
const ROUNDS = 21;
const CALLS_PER_ROUND = 300;
const WARM_UP = 300;
// 600 reads per minute would stop the bench within a second; at this speed a minute is 6 ms.
const CLOCK_SPEED = 10_000;

type CallOnce = () => Promise<void>;

function clientCall(client: MessagingClient): CallOnce {
	return async () => {
		await client.callTool(TOOL, {});
	};
}

function bareCall(url: string, apiKey: string, agent: Agent): CallOnce {
	const headers = {
		accept: 'application/json',
		'content-type': 'application/json',
		authorization: `Bearer ${apiKey}`,
	};
	return async () => {
		const response = await request(`${url}/api/v1/tools/${TOOL}`, {
			method: 'POST',
			headers,
			body: '{}',
			dispatcher: agent,
		});
		const body: unknown = JSON.parse(await response.body.text());
		if (response.statusCode !== 200)
			throw new Error(`bare request answered ${response.statusCode}: ${JSON.stringify(body)}`);
	};
}

async function callsPerSecond(call: CallOnce, calls: number): Promise<number> {
	const start = process.hrtime.bigint();
	for (let index = 0; index < calls; index++) await call();
	return calls / (Number(process.hrtime.bigint() - start) / 1e9);
}

export async function clientOverheadRow(sandbox: SandboxProcess): Promise<MeasuredRow> {
	await sandbox.setSpeed(CLOCK_SPEED);
	const apiKey = sandbox.keys.owner;
	const transport = createUndiciTransport({ baseUrl: sandbox.url, apiKey });
	// No retries: a single failed call must fail the row, not hide inside a retry's wait.
	const client = new MessagingClient({
		transport,
		sleep: async () => {},
		retry: { maxAttempts: 1 },
	});
	const agent = new Agent({ keepAliveTimeout: 10_000, connections: 128 });
	const contenders = { client: clientCall(client), bare: bareCall(sandbox.url, apiKey, agent) };
	try {
		for (const call of Object.values(contenders)) await callsPerSecond(call, WARM_UP);
		const rates = await interleavedRounds(
			{
				client: () => callsPerSecond(contenders.client, CALLS_PER_ROUND),
				bare: () => callsPerSecond(contenders.bare, CALLS_PER_ROUND),
			},
			ROUNDS,
		);
		const relative = pairedRatio(rates.client, rates.bare);
		return {
			id: '4',
			title: `Client overhead on loopback: ${TOOL} calls per second, shared client over undici vs bare undici`,
			figure: `${ratio(relative)} (${perSecond(median(rates.client))})`,
			anchor: `bare undici ${perSecond(median(rates.bare))}`,
			target: `>= ${TARGET.toFixed(1)}x`,
			met: relative >= TARGET,
			notes: [
				`Sequential calls against the sandbox in its own process (clock x${CLOCK_SPEED.toLocaleString('en-US')} so the read limit never binds); median over ${ROUNDS} interleaved rounds of ${CALLS_PER_ROUND} calls of the per-round ratio.`,
			],
		};
	} finally {
		await transport.close();
		await agent.close();
		await sandbox.setSpeed(1);
	}
}
