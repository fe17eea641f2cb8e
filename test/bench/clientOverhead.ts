import { Agent, request } from 'undici';

import { MessagingClient } from '../../nodes/shared/client/client';
import { createUndiciTransport } from '../support/undiciTransport';
import type { SandboxProcess } from './sandboxProcess';
import { median, pairedRatio, perSecond, ratio } from './stats';
import type { MeasuredRow } from './table';

/*
 * Row 4: what the shared client adds per call (call planning, idempotency rules, response and
 * error mapping, the request loop) on top of the undici transport, against a bare undici
 * request for the same tool on the same keep-alive setup. Calls go one after another, so the
 * figure is per-call cost, not how many sockets the server can keep busy.
 */

const TOOL = 'get_account_context';
const TARGET = 0.9;
const ROUNDS = 41;
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

/**
 * One round: `calls` calls of each contender, alternating call by call (each going first in every
 * other pair), each contender's calls timed on their own. A slow spell of the machine or of the
 * sandbox then falls on both alike, which rounds of one contender after the other cannot promise.
 */
async function alternatingRound(
	contenders: Record<'client' | 'bare', CallOnce>,
	calls: number,
): Promise<{ client: number; bare: number }> {
	const spentNs = { client: 0n, bare: 0n };
	for (let pair = 0; pair < calls; pair++) {
		const order = pair % 2 === 0 ? (['client', 'bare'] as const) : (['bare', 'client'] as const);
		for (const name of order) {
			const start = process.hrtime.bigint();
			await contenders[name]();
			spentNs[name] += process.hrtime.bigint() - start;
		}
	}
	const rate = (ns: bigint) => calls / (Number(ns) / 1e9);
	return { client: rate(spentNs.client), bare: rate(spentNs.bare) };
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
		await alternatingRound(contenders, WARM_UP);
		const rates = { client: [] as number[], bare: [] as number[] };
		for (let round = 0; round < ROUNDS; round++) {
			const rate = await alternatingRound(contenders, CALLS_PER_ROUND);
			rates.client.push(rate.client);
			rates.bare.push(rate.bare);
		}
		const relative = pairedRatio(rates.client, rates.bare);
		return {
			id: '4',
			title: `Client overhead on loopback: ${TOOL} calls per second, shared client over undici vs bare undici`,
			figure: `${ratio(relative)} (${perSecond(median(rates.client))})`,
			anchor: `bare undici ${perSecond(median(rates.bare))}`,
			target: `>= ${TARGET.toFixed(1)}x`,
			met: relative >= TARGET,
			notes: [
				`Sequential calls against the sandbox in its own process (clock x${CLOCK_SPEED.toLocaleString('en-US')} so the read limit never binds); median over ${ROUNDS} rounds of the per-round ratio, each round ${CALLS_PER_ROUND} calls of each contender alternating call by call, each contender's calls timed on their own. The transport passes undici its deadline as an EventEmitter-like signal whose listener goes straight to the shared deadline slot (no AbortSignal listener per call).`,
			],
		};
	} finally {
		await transport.close();
		await agent.close();
		await sandbox.setSpeed(1);
	}
}
