import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../sandbox';

/** The refund example's manager and customer, and its start webhook (test/dev/workflows/refund-approval.json). */
const MANAGER = '447700900123';
const CUSTOMER = '4915112345678';
const REFUND_PATH = 'example-refund-approval';

interface Run {
	status: string;
	workflowId: string;
}

/** A call to the sandbox's API with the owner's key, as an example workflow's node makes it. */
async function callApi(sandbox: SandboxHandle, path: string, body: Record<string, unknown>) {
	const response = await fetch(`${sandbox.url}/api/v1/${path}`, {
		method: 'POST',
		headers: {
			authorization: `Bearer ${sandbox.apiKey}`,
			'idempotency-key': randomUUID(),
			'content-type': 'application/json',
		},
		body: JSON.stringify(body),
	});
	expect(response.status).toBe(200);
}

/**
 * n8n as `npm run try` sees it: login, executions and workflows over its REST API, resume links
 * under /webhook-waiting/ and the refund example's start webhook. Opening a waiting run's link
 * finishes it and tells the customer through the sandbox, as the refund example does.
 */
async function startN8nStandIn(sandbox: SandboxHandle) {
	const runs = new Map<string, Run>();
	const opened: string[] = [];
	let started = 0;
	const paths: Record<string, string> = { refund: REFUND_PATH, other: 'other' };
	const send = (to: string, text: string) =>
		callApi(sandbox, 'tools/send_message', { channel: 'qr', phoneNumber: to, text });
	const server: Server = createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://n8n.local');
		const answer = (body: unknown) => {
			res.setHeader('set-cookie', 'n8n-auth=session; Path=/');
			res.end(JSON.stringify({ data: body }));
		};
		const run = /^\/rest\/executions\/(\w+)$/.exec(url.pathname)?.[1];
		const workflow = /^\/rest\/workflows\/(\w+)$/.exec(url.pathname)?.[1];
		const resumed = /^\/webhook-waiting\/(\w+)/.exec(url.pathname)?.[1];
		if (url.pathname === '/rest/login') return answer({});
		if (run) return answer({ id: run, ...runs.get(run) });
		if (workflow)
			return answer({ id: workflow, nodes: [{ parameters: { path: paths[workflow] } }] });
		if (resumed) {
			opened.push(resumed);
			const waiting = runs.get(resumed)?.status === 'waiting';
			if (!waiting) return res.end('No action required');
			void send(CUSTOMER, `Refund of run ${resumed} approved.`).then(() =>
				runs.set(resumed, { status: 'success', workflowId: 'refund' }),
			);
			return res.end('Got it');
		}
		if (url.pathname === `/webhook/${paths.refund}`) {
			started++;
			const id = String(100 + started);
			runs.set(id, { status: 'waiting', workflowId: 'refund' });
			void ask(id);
			return res.end('{"message":"Workflow was started"}');
		}
		res.statusCode = 404;
		res.end('{"message":"not registered"}');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	/** A Send and Wait question to the manager from run `id`, its links as n8n 2.x builds them. */
	const ask = (id: string) =>
		send(
			MANAGER,
			`Refund 25 EUR for order 1042?\n\nReply 1 to Approve or 2 to Decline\n\nApprove: ${url}/webhook-waiting/${id}/node-1?approved=true&signature=s\nDecline: ${url}/webhook-waiting/${id}/node-1?approved=false&signature=s`,
		);
	return {
		url,
		opened,
		/** A question to the manager from run `id` of workflow `workflowId`, now in `status`. */
		async question(id: string, status: string, workflowId = 'refund') {
			runs.set(id, { status, workflowId });
			await ask(id);
		},
		stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

describe('npm run try: each example command waits for its effect and says what happened', () => {
	let sandbox: SandboxHandle;
	let n8n: Awaited<ReturnType<typeof startN8nStandIn>>;
	const actions = async () =>
		(await import('./tryActions.mjs')).tryExamples({ sandboxUrl: sandbox.url, n8nUrl: n8n.url });

	beforeEach(async () => {
		sandbox = await startSandbox();
		n8n = await startN8nStandIn(sandbox);
	});
	afterEach(async () => {
		await n8n.stop();
		await sandbox.stop();
	});

	it('approve says plainly that nothing asked yet, and opens nothing', async () => {
		expect(await (await actions()).approve()).toBe(
			`No question waiting: the refund approval has not asked the manager ${MANAGER} yet. Ask: npm run -s try -- refund`,
		);
		expect(n8n.opened).toEqual([]);
	});

	it('approve never opens the link of an earlier question whose run has moved on (it answered "No action required")', async () => {
		await n8n.question('5', 'success');
		expect(await (await actions()).approve()).toBe(
			'No question waiting: the last one to the manager (run 5) is answered already (success). Ask again: npm run -s try -- refund',
		);
		expect(n8n.opened).toEqual([]);
	});

	it('approve opens the link of the refund run still waiting, not a newer question of another workflow to the same manager, and prints what the customer was told', async () => {
		await n8n.question('5', 'success');
		await n8n.question('7', 'waiting');
		await n8n.question('9', 'waiting', 'other');
		expect(await (await actions()).approve()).toBe(
			`Approved: the manager opened the Approve link (HTTP 200), run 7 finished and told the customer ${CUSTOMER} "Refund of run 7 approved."`,
		);
		expect(n8n.opened).toEqual(['7']);
	});

	it("refund waits until its own run's question is sent, and approve then opens that one", async () => {
		await n8n.question('5', 'success');
		expect(await (await actions()).refund()).toBe(
			`Question sent to the manager ${MANAGER}; run 101 waits for the answer: "Refund 25 EUR for order 1042? …"`,
		);
		expect(await (await actions()).approve()).toMatch(/^Approved: .*, run 101 finished/);
		expect(n8n.opened).toEqual(['101']);
	});
});

/** The AI reply bot's customer (test/dev/workflows/ai-reply-bot.json) and the staff number it tells. */
const DANA = '4915198765432';
const STAFF = '919876543210';

/**
 * The AI reply bot example as the sandbox sees it: an endpoint for message.received that answers
 * Dana's last quick message in her chat, and tells staff when she asks for a person.
 */
async function startBotStandIn(sandbox: SandboxHandle) {
	const send = (body: Record<string, unknown>) => callApi(sandbox, 'tools/send_message', body);
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			res.end('{}');
			const { data } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
				data: { message?: { from?: { phone?: string }; text?: string; conversation_id: string } };
			};
			const message = data.message;
			if (message?.from?.phone !== DANA) return;
			if (message.text === 'where is it??')
				void send({
					channel: 'business',
					conversationId: message.conversation_id,
					text: 'On its way!',
				});
			if (message.text?.includes('human'))
				void send({ channel: 'qr', phoneNumber: STAFF, text: 'A customer asked for a person.' });
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	await callApi(sandbox, 'webhooks', {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
		event_types: ['message.received'],
	});
	return { stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('npm run try: the AI reply bot and its takeover', () => {
	let sandbox: SandboxHandle;
	let bot: Awaited<ReturnType<typeof startBotStandIn>>;
	const actions = async () =>
		(await import('./tryActions.mjs')).tryExamples({
			sandboxUrl: sandbox.url,
			n8nUrl: 'http://127.0.0.1:9',
		});
	const sentTo = (phone: string) => sandbox.inject.sends().filter((entry) => entry.to === phone);

	beforeEach(async () => {
		sandbox = await startSandbox();
		bot = await startBotStandIn(sandbox);
	});
	afterEach(async () => {
		await bot.stop();
		await sandbox.stop();
	});

	it("ai-bot writes Dana's four quick messages and prints the bot's one reply in her chat", async () => {
		expect(await (await actions())['ai-bot']()).toMatch(
			/^Dana wrote 4 messages in \d+\.\d s; the AI reply bot answered \d+\.\d s after the last: "On its way!"$/,
		);
	});

	it("hand-over prints what staff were told, and bot-off / bot-on send the account's commands in her chat", async () => {
		expect(await (await actions())['hand-over']()).toBe(
			`Dana asked for a person: the AI reply bot stays silent in her chat for 12 hours (or until /bot on), and the staff number ${STAFF} was told: "A customer asked for a person."`,
		);
		expect(await (await actions())['bot-off']()).toMatch(
			/^The account wrote "\/bot off" in Dana's chat/,
		);
		expect(await (await actions())['bot-on']()).toMatch(
			/^The account wrote "\/bot on" in Dana's chat/,
		);
		expect(sentTo(DANA).map((entry) => entry.text)).toEqual(['/bot off', '/bot on']);
	});
});
