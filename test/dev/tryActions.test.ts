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

/** A "run X first" line: the command stops with it (exit 2), not with an error. */
async function expectRunFirst(action: Promise<string>, line: string | RegExp) {
	const error = await action.then(
		(printed) => new Error(`printed: ${printed}`),
		(thrown: unknown) => thrown,
	);
	expect(error).toBeInstanceOf((await import('./tryLines.mjs')).RunFirst);
	if (typeof line === 'string') expect((error as Error).message).toBe(line);
	else expect((error as Error).message).toMatch(line);
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
 * finishes it and tells the customer through the sandbox, as the refund example does; so does the
 * manager's "1" in the chat, for the question it quotes or else the newest (as Answer in Chat does).
 */
async function startN8nStandIn(sandbox: SandboxHandle) {
	const runs = new Map<string, Run>();
	const opened: string[] = [];
	const answered: Array<{ run: string; quoted: boolean }> = [];
	/** Every "1" the manager wrote, by the message it quotes (null: none). */
	const ones: Array<string | null> = [];
	const finish = (id: string) =>
		send(CUSTOMER, `Refund of run ${id} approved.`).then(() =>
			runs.set(id, { status: 'success', workflowId: 'refund' }),
		);
	/** A delivery of the sandbox: the manager's "1" answers the question it quotes, or the newest. */
	const chat = (body: string) => {
		const message = (JSON.parse(body) as { data: { message?: Record<string, any> } }).data.message;
		if (message?.from?.phone !== MANAGER || message.text !== '1') return;
		const quoted: string | undefined = message.quoted_message_id ?? undefined;
		ones.push(quoted ?? null);
		const questions = sandbox.inject.sends().filter((entry) => entry.to === MANAGER);
		const question = quoted
			? questions.find((entry) => entry.message_id === quoted)
			: questions.at(-1);
		const id = /\/webhook-waiting\/(\w+)/.exec(question?.text ?? '')?.[1];
		if (!id || runs.get(id)?.status !== 'waiting') return;
		answered.push({ run: id, quoted: quoted !== undefined });
		void finish(id);
	};
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
		if (url.pathname === '/chat') {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				res.end('{}');
				chat(Buffer.concat(chunks).toString('utf8'));
			});
			return;
		}
		if (url.pathname === '/rest/login') return answer({});
		if (run) return answer({ id: run, ...runs.get(run) });
		if (workflow)
			return answer({ id: workflow, nodes: [{ parameters: { path: paths[workflow] } }] });
		if (resumed) {
			opened.push(resumed);
			const waiting = runs.get(resumed)?.status === 'waiting';
			if (!waiting) return res.end('No action required');
			void finish(resumed);
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
	await callApi(sandbox, 'webhooks', { url: `${url}/chat`, event_types: ['message.received'] });
	return {
		url,
		opened,
		answered,
		ones,
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

	it('approve says in one line to run refund first when nothing asked yet, and opens nothing', async () => {
		await expectRunFirst(
			(await actions()).approve(),
			`No question waiting: the refund approval has not asked the manager ${MANAGER} yet. Run npm run -s try -- refund first`,
		);
		expect(n8n.opened).toEqual([]);
	});

	it('approve never opens the link of an earlier question whose run has moved on (it answered "No action required")', async () => {
		await n8n.question('5', 'success');
		await expectRunFirst(
			(await actions()).approve(),
			'No question waiting: the last one to the manager (run 5) is answered already (success). Run npm run -s try -- refund first',
		);
		expect(n8n.opened).toEqual([]);
	});

	it('a second refund question leaves the first waiting: approve answers the newest, says the other still waits, and answers it when run again', async () => {
		await n8n.question('5', 'waiting');
		await n8n.question('7', 'waiting');
		expect(await (await actions()).approve()).toBe(
			`Approved: the manager opened the Approve link (HTTP 200), run 7 finished and told the customer ${CUSTOMER} "Refund of run 7 approved."; run 5 still waits: run this again`,
		);
		expect(await (await actions()).approve()).toMatch(
			/^Approved: .*, run 5 finished .*approved\."$/,
		);
		expect(n8n.opened).toEqual(['7', '5']);
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

	it('approve-in-chat writes "1" for the newest refund question still waiting, quoting it when a newer question stands below it', async () => {
		await n8n.question('5', 'waiting');
		await n8n.question('7', 'success');
		expect(await (await actions())['approve-in-chat']()).toBe(
			`Approved: the manager wrote "1" in the chat, quoting the question, run 5 finished and told the customer ${CUSTOMER} "Refund of run 5 approved."`,
		);
		await n8n.question('9', 'waiting');
		expect(await (await actions())['approve-in-chat']()).toBe(
			`Approved: the manager wrote "1" in the chat, run 9 finished and told the customer ${CUSTOMER} "Refund of run 9 approved."`,
		);
		expect(n8n.answered).toEqual([
			{ run: '5', quoted: true },
			{ run: '9', quoted: false },
		]);
		expect(n8n.opened).toEqual([]);
	});

	// After the account wrote to the manager (the reply bot answers Bob's attachment message), an unquoted "1" answers nothing.
	it('approve-in-chat quotes the question when the account wrote to the manager after it (refund, then attachment, then approve-in-chat)', async () => {
		await n8n.question('9', 'waiting');
		// What the reply bot sends when Bob (the manager's number) writes on QR, as the attachment command makes him.
		await callApi(sandbox, 'tools/send_message', {
			channel: 'qr',
			phoneNumber: MANAGER,
			text: 'Thanks Bob, we got your message: "invoice attached"',
		});
		const question = sandbox.inject
			.sends()
			.find((entry) => entry.to === MANAGER && entry.text.includes('/webhook-waiting/9/'));
		const pending = (await actions())['approve-in-chat']().catch((error: unknown) => error);
		for (let tries = 0; n8n.ones.length === 0 && tries < 100; tries++)
			await new Promise((resolve) => setTimeout(resolve, 50));
		// Let the command end at once instead of after its 60 s wait, whatever it wrote.
		await n8n.question('9', 'success');
		await pending;
		expect(question?.message_id).toBeDefined();
		expect(n8n.ones).toEqual([question?.message_id]);
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
	/** The texts of Dana's messages delivered to it. */
	const delivered: string[] = [];
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
			delivered.push(message.text ?? '');
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
	return {
		delivered,
		stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
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

	it('on a fresh instance, bot-off says in one line to run ai-bot or hand-over first, and bot-on that the chat is not paused; neither sends', async () => {
		await expectRunFirst(
			(await actions())['bot-off'](),
			`Dana has not written in the last 24 hours, and a Business chat takes the account's "/bot off" only within 24 hours of her last message: run npm run -s try -- ai-bot or npm run -s try -- hand-over first`,
		);
		expect(await (await actions())['bot-on']()).toBe(
			"Dana's chat is not paused: the AI reply bot answers her already (nothing sent). Pause it: npm run -s try -- bot-off",
		);
		expect(sentTo(DANA)).toEqual([]);
	});

	it('ai-bot in a paused chat says at once that it is paused and since when, and writes nothing; after bot-on it is answered', async () => {
		await (await actions())['ai-bot']();
		await (await actions())['bot-off']();
		const saved = () => sandbox.inject.snapshot().accounts.map((account) => account.messages);
		const before = saved();
		const since = sentTo(DANA).find((entry) => entry.text === '/bot off')?.at ?? '';
		await expectRunFirst(
			(await actions())['ai-bot'](),
			`Dana's chat is paused since ${since.slice(0, 16).replace('T', ' ')} UTC, when the account sent /bot off: the AI reply bot stays silent there. Run npm run -s try -- bot-on first`,
		);
		expect(saved()).toEqual(before);
		await (await actions())['bot-on']();
		expect(await (await actions())['ai-bot']()).toMatch(/answered .*: "On its way!"$/);
	});

	it("lost-event saves Dana's message and loses its event (no delivery ever reaches the bot), and says how it is caught up; her next messages are delivered", async () => {
		const { LINES } = await import('./tryLines.mjs');
		const line = await (await actions())['lost-event']();
		const id = /saved it \(([^)]+)\)/.exec(line)?.[1] ?? '';
		expect(line).toBe(LINES.lostEvent({ text: 'is anyone there?', id }));
		expect(line).toContain('npm run -s try -- ai-bot');
		const saved = [...sandbox.state.accounts.values()]
			.flatMap((account) => account.messages)
			.find((message) => message.id === id);
		expect(saved).toMatchObject({ text: 'is anyone there?' });

		expect(await (await actions())['ai-bot']()).toMatch(/"On its way!"$/);
		expect(bot.delivered).toEqual(['hi', 'I ordered yesterday', 'order 4411', 'where is it??']);
	});
});
