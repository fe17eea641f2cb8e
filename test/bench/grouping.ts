import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

import type { N8nWebhookHost } from '../support/n8nWebhook';
import type { SandboxProcess } from './sandboxProcess';
import { activeBenchTrigger } from './triggerHost';
import { interleavedRounds, median, pairedRatio, ratio } from './stats';
import type { RowResult } from './table';

/*
 * Row 6: what Group Quick Messages adds per delivery. The same trigger, hosted in n8n's own webhook
 * machinery, with grouping off and on, takes the same bursts (5 quick messages from each of 20
 * people, saved in the sandbox process) as signed deliveries, in alternating rounds. Per delivery:
 * this process's CPU (verifying, the handler, the look-up, the runs it starts) and get_messages
 * reads; per burst: runs started.
 */

const PEOPLE = 20;
const PER_BURST = 5;
const ROUNDS = 5;
const SECRET = `whsec_${Buffer.from('bench-grouping-secret-32-bytes!!').toString('base64')}`;

interface Side {
	host: N8nWebhookHost;
	url: string;
}

async function startSide(sandbox: SandboxProcess, grouping: boolean): Promise<Side> {
	const host = await activeBenchTrigger(sandbox, {
		registration: 'dashboard',
		signingSecret: SECRET,
		events: ['message.received'],
		...(grouping
			? { groupQuickMessages: true, quietWindowSeconds: 0.1, longestWaitSeconds: 30 }
			: {}),
	});
	return { host, url: host.url('production') };
}

/** One round's messages: PEOPLE bursts of PER_BURST, saved in the sandbox, as event bodies. */
async function saveBursts(sandbox: SandboxProcess, round: number): Promise<string[]> {
	const bodies: string[] = [];
	// Each round's messages are written on the host's clock, as the deliveries are signed: the
	// service stamps messages and signs deliveries with one clock (a message stamped after its own
	// delivery was sent counts as a phone's clock set ahead, and its burst waits for the service's
	// clock to get there). Rounds are apart by their senders.
	await sandbox.control('POST', '/clock', { set: Date.now() - PER_BURST * 50 });
	for (let index = 0; index < PER_BURST; index++) {
		await sandbox.control('POST', '/clock', { advanceMs: 50 });
		for (let person = 0; person < PEOPLE; person++) {
			const from = {
				phone: `4917${String(round).padStart(3, '0')}${String(person).padStart(5, '0')}`,
				name: `Person ${person}`,
			};
			const { message } = await sandbox.control<{ message: unknown }>('POST', '/inject/message', {
				from,
				text: `part ${index}`,
			});
			bodies.push(
				JSON.stringify({
					id: `evt_${randomUUID().replaceAll('-', '')}`,
					type: 'message.received',
					created_at: new Date().toISOString(),
					api_version: '2026-10-01',
					account_id: 'acc_demo',
					data: { message },
				}),
			);
		}
	}
	return bodies;
}

async function deliver(url: string, body: string): Promise<void> {
	const id = `msg_${randomUUID().replaceAll('-', '')}`;
	const now = new Date();
	const headers = {
		'content-type': 'application/json',
		'webhook-id': id,
		'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
		'webhook-signature': new Webhook(SECRET).sign(id, now, body),
	};
	const response = await fetch(url, { method: 'POST', headers, body });
	await response.arrayBuffer();
}

interface Sample {
	cpuUs: number;
	reads: number;
	runs: number;
}

async function measure(sandbox: SandboxProcess, side: Side, bodies: string[]): Promise<Sample> {
	const readsBefore = (await sandbox.calls()).filter((call) => call.tool === 'get_messages').length;
	const runsBefore = side.host.executions.length;
	const cpu = process.cpuUsage();
	await Promise.all(bodies.map(async (body) => await deliver(side.url, body)));
	await side.host.settled();
	const used = process.cpuUsage(cpu);
	const reads =
		(await sandbox.calls()).filter((call) => call.tool === 'get_messages').length - readsBefore;
	return { cpuUs: used.user + used.system, reads, runs: side.host.executions.length - runsBefore };
}

export async function groupingRow(sandbox: SandboxProcess): Promise<RowResult> {
	await sandbox.control('POST', '/clock', { speed: 0 });
	const off = await startSide(sandbox, false);
	const on = await startSide(sandbox, true);
	const samples: Record<'off' | 'on', Sample[]> = { off: [], on: [] };
	try {
		let round = 0;
		const contenders = {
			off: async () => (
				samples.off.push(await measure(sandbox, off, await saveBursts(sandbox, round++))),
				0
			),
			on: async () => (
				samples.on.push(await measure(sandbox, on, await saveBursts(sandbox, round++))),
				0
			),
		};
		await interleavedRounds(contenders, ROUNDS);
	} finally {
		await Promise.all([off.host.stop(), on.host.stop()]);
		await sandbox.control('POST', '/clock', { speed: 1 });
	}
	const deliveries = PEOPLE * PER_BURST;
	const cpuPerDelivery = (side: Sample[]) => side.map((sample) => sample.cpuUs / deliveries / 1000);
	const cpuRatio = pairedRatio(cpuPerDelivery(samples.on), cpuPerDelivery(samples.off));
	// Over every round, not the median one: the target is an average.
	const readsPerBurst =
		samples.on.reduce((sum, sample) => sum + sample.reads, 0) / (PEOPLE * samples.on.length);
	const runsPerBurst = {
		on: median(samples.on.map((sample) => sample.runs / PEOPLE)),
		off: median(samples.off.map((sample) => sample.runs / PEOPLE)),
	};
	return {
		id: '6',
		title: `Group Quick Messages, per delivery (bursts of ${PER_BURST}, ${PEOPLE} people)`,
		figure: `CPU ${ratio(cpuRatio)} (${median(cpuPerDelivery(samples.on)).toFixed(2)} ms); ${readsPerBurst.toFixed(2)} get_messages reads and ${runsPerBurst.on} run per burst`,
		anchor: `grouping off: ${median(cpuPerDelivery(samples.off)).toFixed(2)} ms, 0 reads, ${runsPerBurst.off} runs per burst`,
		target: `≤ 1.25 reads and 1 run per burst; CPU stated`,
		met: readsPerBurst <= 1.25 && runsPerBurst.on === 1,
		notes: [
			`Row 6: CPU of the process hosting the trigger in n8n-core's webhook machinery (verification, the handler, holding the deliveries, the get_messages look-up, and the runs it starts), median of ${ROUNDS} alternating rounds; the sandbox runs in its own process.`,
		],
	};
}
