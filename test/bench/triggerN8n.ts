import { createHmac, randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';

import type { N8nRestApi } from '../support/n8nRestApi.mjs' with { 'resolution-mode': 'import' };
import { interleavedRounds, median, pairedRatio, perSecond, ratio } from './stats';
import type { RowResult } from './table';

/*
 * Row 5: a real n8n (the pinned install of the end-to-end harness, loading this package's
 * build) with two published workflows of one node each: our trigger (automatic registration
 * against the sandbox, default options, so signatures are checked and event ids deduplicated)
 * and n8n's own Webhook node (no checks at all). A bounded loop on loopback posts the same
 * kind of delivery to each and counts accepted deliveries per second. Between rounds n8n
 * finishes the executions already started, so no round pays for the one before.
 *
 * n8n gives every trigger's webhook request an expression sandbox except its own Webhook node's
 * (`webhookPhaseNeedsIsolate`), a cost no community node can avoid. So the row runs twice, each
 * on a fresh n8n: 5a on equal terms (that exemption off, so both nodes pay n8n's sandbox), held to
 * the target; 5b with n8n's defaults, where the anchor is exempt, stated.
 */

/** 5a: n8n's own Webhook node pays the webhook-phase sandbox every other trigger pays. */
const EQUAL_TERMS = { N8N_EXPRESSION_ENGINE_ALLOW_WEBHOOK_ISOLATE_SKIP: 'false' };

const TARGET = 0.9;
const ROUNDS = 5;
const DELIVERIES = 200;
const IN_FLIGHT = 8;
const DRAIN_TIMEOUT_MS = 120_000;

/** What this row uses of test/support/n8nInstall.mjs, which ships no type declarations. */
interface N8nInstall {
	isInstalled(): boolean;
	N8N_VERSION: string;
	NODE_VERSION: string;
}

interface Target {
	url: string;
	workflowId: string;
	/** Deliveries it accepted so far: each started one execution. */
	accepted: number;
	sign(id: string, timestamp: string, body: string): Record<string, string>;
}

function envelope(): string {
	const eventId = `evt_${randomUUID().replaceAll('-', '')}`;
	return JSON.stringify({
		id: eventId,
		type: 'message.received',
		created_at: new Date().toISOString(),
		api_version: '2026-10-01',
		account_id: 'acc_bench',
		data: {
			message: {
				id: `msg_${eventId.slice(4, 20)}`,
				conversation_id: '4915112345678@s.whatsapp.net',
				channel: 'qr',
				chat_type: 'individual',
				from_me: false,
				sender: { phone: '4915112345678', name: 'Alice Example' },
				type: 'text',
				text: 'Hello! I would like to know whether my order 1042 has shipped yet. Thanks a lot.',
				timestamp: new Date().toISOString(),
			},
		},
	});
}

/** Signs ahead of the timed loop, so only n8n's side is measured; timestamps stay well within 300 s. */
function prepare(
	target: Target,
	count = DELIVERIES,
): Array<{ body: string; headers: Record<string, string> }> {
	const timestamp = String(Math.floor(Date.now() / 1000));
	return Array.from({ length: count }, () => {
		const body = envelope();
		const id = `msg_${randomUUID().replaceAll('-', '')}`;
		return {
			body,
			headers: { 'content-type': 'application/json', ...target.sign(id, timestamp, body) },
		};
	});
}

async function deliveriesPerSecond(target: Target, agent: Agent): Promise<number> {
	const deliveries = prepare(target);
	let next = 0;
	const start = process.hrtime.bigint();
	const worker = async () => {
		while (next < deliveries.length) {
			const { body, headers } = deliveries[next++];
			const response = await request(target.url, {
				method: 'POST',
				headers,
				body,
				dispatcher: agent,
			});
			const text = await response.body.text();
			if (response.statusCode >= 300)
				throw new Error(`${target.url} answered ${response.statusCode}: ${text.slice(0, 200)}`);
		}
	};
	await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
	const rate = deliveries.length / (Number(process.hrtime.bigint() - start) / 1e9);
	target.accepted += deliveries.length;
	return rate;
}

async function executionCount(api: N8nRestApi, workflowId: string): Promise<number> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const page = await api.request<{ count: number }>('GET', `/executions?filter=${filter}&limit=1`);
	return page.count;
}

/** Polls `probe` every 250 ms until it returns a value; fails naming `what` after `timeoutMs`. */
async function waitFor<T>(
	what: string,
	probe: () => Promise<T | undefined>,
	timeoutMs = DRAIN_TIMEOUT_MS,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() > deadline)
			throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
		await new Promise((done) => setTimeout(done, 250));
	}
}

const drain = (api: N8nRestApi, target: Target) =>
	waitFor(`n8n to finish the executions of ${target.url}`, async () =>
		(await executionCount(api, target.workflowId)) >= target.accepted ? true : undefined,
	);

/**
 * n8n answers the activation before the trigger's registration has finished and its secret is
 * saved; until then deliveries get 401. One delivery at a time until the first is accepted.
 */
async function firstAccepted(target: Target, agent: Agent): Promise<void> {
	await waitFor(`${target.url} to accept a delivery`, async () => {
		const [{ body, headers }] = prepare(target, 1);
		const response = await request(target.url, {
			method: 'POST',
			headers,
			body,
			dispatcher: agent,
		});
		await response.body.text();
		if (response.statusCode >= 300) return undefined;
		target.accepted += 1;
		return true;
	});
}

export async function triggerRows(withN8n: boolean): Promise<RowResult[]> {
	const rows: Array<{ id: string; title: string; env: Record<string, string>; held: boolean }> = [
		{
			id: '5a',
			title:
				"Trigger in real n8n: deliveries accepted per second, our trigger vs n8n Webhook node, both paying n8n's webhook sandbox",
			env: EQUAL_TERMS,
			held: true,
		},
		{
			id: '5b',
			title:
				"Trigger in real n8n, n8n's defaults: our trigger vs n8n Webhook node, which n8n exempts from its webhook sandbox",
			env: {},
			held: false,
		},
	];
	if (!withN8n)
		return rows.map(({ id, title }) => ({
			id,
			title,
			notRun: 'needs --with-n8n (builds the package and starts a real n8n)',
		}));
	const install = (await import(
		pathToFileURL(resolve(__dirname, '../support/n8nInstall.mjs')).href
	)) as N8nInstall;
	if (!install.isInstalled())
		return rows.map(({ id, title }) => ({
			id,
			title,
			notRun: 'n8n is not installed (npm run test:e2e or npm run dev installs it into .cache)',
		}));
	const results: RowResult[] = [];
	for (const row of rows) {
		const { relative, ours, plain } = await measured(row.env);
		results.push({
			id: row.id,
			title: row.title,
			figure: `${ratio(relative)} (${perSecond(ours)})`,
			anchor: `n8n Webhook node ${perSecond(plain)}`,
			target: row.held ? `>= ${TARGET.toFixed(1)}x` : 'stated',
			met: row.held ? relative >= TARGET : null,
			notes: [
				`n8n ${install.N8N_VERSION} on Node ${install.NODE_VERSION}, ${
					Object.keys(row.env).length > 0
						? `defaults but ${Object.entries(row.env)
								.map(([name, value]) => `${name}=${value}`)
								.join(', ')}`
						: 'default settings'
				} (every execution saved to SQLite); ${DELIVERIES} deliveries per round, ${IN_FLIGHT} in flight, ~${(Buffer.byteLength(envelope()) / 1024).toFixed(1)} KB message.received envelopes; median over ${ROUNDS} interleaved rounds of the per-round ratio, executions drained between rounds.`,
			],
		});
	}
	return results;
}

/** One fresh n8n with `env` on top of BENCH_N8N_ENV: our rate against the Webhook node's, paired per round. */
async function measured(
	env: Record<string, string>,
): Promise<{ relative: number; ours: number; plain: number }> {
	// Loaded only now: these modules resolve n8n's own packages on import.
	const { startStack, upsertCredential, sandboxCredentialData } = await import('../dev/stack.mjs');
	const { triggerWorkflow } = (await import(
		pathToFileURL(resolve(__dirname, '../e2e/support/workflows.mts')).href
	)) as typeof import('../e2e/support/workflows.mjs', { with: { 'resolution-mode': 'import' } });
	const stack = await startStack({
		userFolder: join(resolve(__dirname, '../..'), '.cache', 'bench', 'n8n'),
		fresh: true,
		// More environment for n8n, as JSON: '{"NODE_OPTIONS":"--cpu-prof --cpu-prof-dir=…"}' profiles it.
		n8nEnv: {
			...(JSON.parse(process.env.BENCH_N8N_ENV ?? '{}') as Record<string, string>),
			...env,
		},
		log: (line: string) => process.stderr.write(`[bench n8n] ${line}\n`),
	});
	const agent = new Agent({ connections: IN_FLIGHT, keepAliveTimeout: 10_000 });
	try {
		const { api, sandbox, n8n } = stack;
		const credential = await upsertCredential(api, 'Bench sandbox', sandboxCredentialData(sandbox));
		const oursHook = randomUUID();
		const ours = await api.createWorkflow(
			triggerWorkflow('Bench: our trigger', credential, oursHook, {
				registration: 'auto',
				events: ['message.received'],
			}),
		);
		const plainHook = randomUUID();
		const plain = await api.createWorkflow({
			name: 'Bench: n8n Webhook node',
			nodes: [
				{
					id: randomUUID(),
					name: 'Webhook',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					position: [0, 0],
					webhookId: plainHook,
					parameters: {
						httpMethod: 'POST',
						path: plainHook,
						responseMode: 'onReceived',
						options: {},
					},
				},
			],
			connections: {},
			settings: { executionOrder: 'v1' },
		});
		await api.activateWorkflow(ours.id);
		await api.activateWorkflow(plain.id);
		const oursUrl = `${n8n.url}/webhook/${oursHook}/webhook`;
		const endpoint = await waitFor(
			`the trigger to register ${oursUrl} with the sandbox`,
			async () =>
				(sandbox.webhooks.endpoints() as Array<{ url: string; secret: string }>).find(
					(candidate) => candidate.url === oursUrl,
				),
		);
		const key = Buffer.from(endpoint.secret.replace(/^whsec_/, ''), 'base64');
		const targets: Record<'ours' | 'plain', Target> = {
			ours: {
				url: oursUrl,
				workflowId: ours.id,
				accepted: 0,
				sign: (msgId, timestamp, body) => ({
					'webhook-id': msgId,
					'webhook-timestamp': timestamp,
					'webhook-signature': `v1,${createHmac('sha256', key).update(`${msgId}.${timestamp}.${body}`).digest('base64')}`,
				}),
			},
			plain: {
				url: `${n8n.url}/webhook/${plainHook}`,
				workflowId: plain.id,
				accepted: 0,
				sign: () => ({}),
			},
		};
		const round = (name: 'ours' | 'plain') => async () => {
			const rate = await deliveriesPerSecond(targets[name], agent);
			await drain(api, targets[name]);
			return rate;
		};
		for (const target of Object.values(targets)) await firstAccepted(target, agent);
		// One unmeasured round each: n8n compiles and caches per workflow on first use.
		await round('ours')();
		await round('plain')();
		const rates = await interleavedRounds({ ours: round('ours'), plain: round('plain') }, ROUNDS);
		return {
			relative: pairedRatio(rates.ours, rates.plain),
			ours: median(rates.ours),
			plain: median(rates.plain),
		};
	} finally {
		await agent.close();
		await stack.stop();
	}
}
