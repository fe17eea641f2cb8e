import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INodeParameters } from 'n8n-workflow';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';

import { MessagingAutomationApi } from '../../../credentials/MessagingAutomationApi.credentials';
import { MessagingAutomationTrigger } from '../../../nodes/MessagingAutomationTrigger/MessagingAutomationTrigger.node';
import { DEMO, SandboxClock, startSandbox, type SandboxHandle } from '../../sandbox';
import { N8nEngine, type TestWorkflow } from '../../support/n8nEngine';
import { N8nWebhookHost } from '../../support/n8nWebhook';
import { reloadModules } from '../../support/shortBackoff';

export const TRIGGER = 'Trigger';

/** One sandbox per test file, reset before every test, handed to `use` once started. */
export function useSandbox(use: (sandbox: SandboxHandle) => void): void {
	let sandbox: SandboxHandle | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox();
		use(sandbox);
	});
	afterAll(async () => {
		await sandbox?.stop();
	});
	beforeEach(() => sandbox?.reset());
}

/**
 * The conversation tests' set-up: one sandbox per file whose clock stands still and is moved by
 * hand, so every message's timestamp (which alone decides bursts and pauses) is exact however busy
 * the machine is. Before each test: reset, and a new minute for the rate limits (deliveries'
 * signatures stay within the five-minute tolerance). After each: the trigger `current` returns is
 * settled and stopped.
 */
export function useStoppedClock(
	use: (sandbox: SandboxHandle) => void,
	current: () => N8nWebhookHost | undefined,
): void {
	let sandbox: SandboxHandle | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox({ clock: new SandboxClock({ speed: 0 }) });
		use(sandbox);
	});
	afterAll(async () => {
		await sandbox?.stop();
	});
	beforeEach(() => {
		// The clock first: the reset seeds the chats at the clock's time, which an earlier test moved on.
		sandbox?.clock.setSpeed(0);
		sandbox?.clock.set(Date.now());
		sandbox?.reset();
	});
	afterEach(async () => {
		await current()?.settled();
		await current()?.stop();
	});
}

/**
 * Group Quick Messages with a quiet window longer than the hold (12 s): a held delivery goes back
 * to the service at its deadline while its burst is still open (heldDeliveries.ts).
 */
export const longQuietGrouping = (extra: INodeParameters = {}): INodeParameters => ({
	events: ['message.received'],
	groupQuickMessages: true,
	quietWindowSeconds: 12,
	longestWaitSeconds: 30,
	...extra,
});

/** A production trigger for message.received (plus `parameters`), activated against `sandbox`. */
export async function activeMessageTrigger(
	sandbox: SandboxHandle,
	parameters: INodeParameters,
	apiKey = sandbox.keys.owner,
	nodeId?: string,
): Promise<N8nWebhookHost> {
	const trigger = await startTriggerHost({
		baseUrl: sandbox.url,
		apiKey,
		parameters: { events: ['message.received'], ...parameters },
		nodeId,
	});
	await trigger.activate('production');
	return trigger;
}

export function triggerWorkflow(parameters: INodeParameters = {}): TestWorkflow {
	return {
		nodes: [
			{
				id: 'trigger-1',
				name: TRIGGER,
				type: 'messagingAutomationTrigger',
				typeVersion: 1,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters,
				credentials: { messagingAutomationApi: { id: 'cred-1', name: 'Sandbox' } },
			},
		],
		connections: {},
	};
}

/** A trigger hosted in n8n's webhook machinery, its credential pointing at `baseUrl`. */
export async function startTriggerHost(options: {
	baseUrl: string;
	apiKey: string;
	parameters?: INodeParameters;
	/** Another trigger node of the same workflow (its own id; the first is 'trigger-1'). */
	nodeId?: string;
}): Promise<N8nWebhookHost> {
	const engine = new N8nEngine({
		nodeTypes: { messagingAutomationTrigger: new MessagingAutomationTrigger() },
		credentialTypes: [new MessagingAutomationApi()],
		credentials: {
			messagingAutomationApi: {
				apiKey: options.apiKey,
				baseUrl: options.baseUrl,
				authScheme: 'bearer',
			},
		},
	});
	const definition = triggerWorkflow(options.parameters);
	if (options.nodeId) definition.nodes[0].id = options.nodeId;
	const host = new N8nWebhookHost(engine, definition, TRIGGER);
	await host.start();
	return host;
}

/**
 * n8n started again on its database: the trigger's code loaded afresh, whatever it kept in memory
 * gone. Only for files that get modules of their own (ENGINE_OWN_MODULES in vitest.config.mts).
 */
export async function restartN8n(trigger: N8nWebhookHost): Promise<void> {
	await reloadModules();
	// node16 resolution wants the emitted name for import(); vite maps it to the source.
	const fresh = await import(
		'../../../nodes/MessagingAutomationTrigger/MessagingAutomationTrigger.node.js'
	);
	trigger.restart(new fresh.MessagingAutomationTrigger());
}

/** `count` message.received deliveries to `trigger` were answered, and every handler has finished. */
export async function settledAfter(
	sandbox: SandboxHandle,
	trigger: N8nWebhookHost,
	count: number,
): Promise<void> {
	const url = trigger.url('production');
	await waitFor(
		() =>
			sandbox.webhooks
				.attempts()
				.filter((attempt) => attempt.url === url && attempt.body?.includes('"message.received"'))
				.length >= count,
		20_000,
	);
	await trigger.settled();
}

/** Polls until `check` returns a value other than undefined/false; fails after `timeoutMs`. */
export async function waitFor<T>(
	check: () => T | undefined | false,
	timeoutMs = 10_000,
): Promise<T> {
	const started = Date.now();
	for (;;) {
		const value = check();
		if (value !== undefined && value !== false) return value;
		if (Date.now() - started > timeoutMs) throw new Error('waitFor: condition not met in time');
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

export interface RefusingProxy {
	url: string;
	/** `METHOD path` of every request that reached the proxy. */
	seen: string[];
	/** `METHOD path-regex` rules answered with the given status instead of being forwarded. */
	refuse(method: string, path: RegExp, status: number): void;
	stop(): Promise<void>;
}

/**
 * Forwards to the sandbox, except for the calls a rule refuses: models a service whose webhook
 * management is partly unsupported (405/501), which the sandbox itself never does.
 */
export async function startRefusingProxy(target: string): Promise<RefusingProxy> {
	const rules: Array<{ method: string; path: RegExp; status: number }> = [];
	const seen: string[] = [];
	const server: Server = createServer((req, res) => {
		seen.push(`${req.method ?? ''} ${req.url ?? ''}`);
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const rule = rules.find(
				(candidate) => candidate.method === req.method && candidate.path.test(req.url ?? ''),
			);
			if (rule) {
				res.writeHead(rule.status, { 'content-type': 'text/plain' }).end('Method Not Allowed');
				return;
			}
			const headers = Object.fromEntries(
				Object.entries(req.headers).filter(
					([name]) => !['host', 'connection', 'content-length'].includes(name),
				),
			) as Record<string, string>;
			const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
			void fetch(`${target}${req.url ?? ''}`, { method: req.method, headers, body }).then(
				async (answer) => {
					res.writeHead(answer.status, Object.fromEntries(answer.headers));
					res.end(Buffer.from(await answer.arrayBuffer()));
				},
			);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		seen,
		refuse: (method, path, status) => void rules.push({ method, path, status }),
		stop: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** The delivery attempts of message events to `trigger`'s production URL (not its webhook.test). */
export function messageDeliveries(sandbox: SandboxHandle, trigger: N8nWebhookHost) {
	return sandbox.webhooks
		.attempts()
		.filter(
			(attempt) =>
				attempt.url === trigger.url('production') && attempt.body?.includes('"message.received"'),
		);
}

/** The logger n8n-core hands nodes: from n8n-core's own copies of @n8n/di and @n8n/backend-common. */
export function coreLogger(): { warn: (message: string) => void; info: (message: string) => void } {
	const fromCore = createRequire(createRequire(__filename).resolve('n8n-core'));
	const { Container } = fromCore('@n8n/di') as { Container: { get(type: unknown): unknown } };
	const { Logger } = fromCore('@n8n/backend-common') as { Logger: unknown };
	return Container.get(Logger) as ReturnType<typeof coreLogger>;
}

/** Alice writes `text` now (the sandbox saves it and queues its event): the saved message. */
export function aliceWrites(sandbox: SandboxHandle, text: string): { id: string } {
	const result = sandbox.inject.injectMessage({ from: DEMO.alice, text });
	expect(result.saved).toBe(true);
	return result.message as { id: string };
}

/** The delivery attempts of the message `id` to `trigger`. */
export function attemptsOfMessage(sandbox: SandboxHandle, trigger: N8nWebhookHost, id: string) {
	return messageDeliveries(sandbox, trigger).filter((attempt) =>
		attempt.body?.includes(`"id":"${id}"`),
	);
}

/** The texts of each grouped run that passed anything on (a copy of a recorded run passes nothing). */
export function passedRunTexts(trigger: N8nWebhookHost): string[][] {
	return trigger.executions
		.filter((execution) => execution.items.length > 0)
		.map((execution) =>
			(execution.items[0].json.messages as Array<{ text: string }>).map((message) => message.text),
		);
}
