import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';

import { DEMO, SandboxClock } from '../../../sandbox';
import type { N8nWebhookHost } from '../../../support/n8nWebhook';
import { callWaitingWebhook } from '../../../support/waitingWebhook';
import { actionNode, useHarness, type Harness } from '../../MessagingAutomation/harness';
import { activeMessageTrigger } from '../fixtures';

/*
 * Questions asked by the real Send and Wait node, for answer tests end to end in n8n's engine
 * against the sandbox (answersInChat.test.ts, catchUp/answerCatchUp.test.ts). The stand-in for
 * n8n's waiting webhooks only routes a link to the node asked with its key and, like n8n, answers
 * 409 once the execution resumed (n8n 2.x) or passes every request on (n8n 1.x).
 */

export interface RealQuestions {
	h: Harness;
	/** Send and Wait's parameters per question key (the links' `q`), and whether it still waits. */
	asked: Map<string, { parameters: INodeParameters; waiting: boolean }>;
	/** Every resume, in order: the question's key and what the node passed on. */
	resumes: Array<{ key: string; data: IDataObject }>;
	/** n8n's line: 2.x refuses a resume of an execution that no longer waits, 1.x does not. */
	setLine: (line: '1.x' | '2.x') => void;
	/** n8n's waiting webhooks answer 502 (a proxy before n8n, n8n restarting) while down. */
	setDown: (down: boolean) => void;
	/** Where the stand-in listens: this n8n's waiting-webhook base. */
	waitingBase: () => string;
	/** The account's trigger with Pass Answers on, its n8n building links where the stand-in listens. */
	activeTrigger: (extra?: INodeParameters) => Promise<N8nWebhookHost>;
	question: (extra?: INodeParameters) => INodeParameters;
	/** Sends the question through the node, a second after the last message; its message id and key. */
	ask: (parameters: INodeParameters) => Promise<{ id: string; key: string }>;
	say: (
		text: string,
		quotedMessageId?: string,
	) => ReturnType<Harness['sandbox']['inject']['injectMessage']>['message'];
	accountWrites: (text: string) => void;
	ran: (trigger: N8nWebhookHost) => N8nWebhookHost['executions'][number]['items'];
	texts: (trigger: N8nWebhookHost) => unknown[];
	calls: (tool: string) => number;
}

export function useRealQuestions(): RealQuestions {
	const h = useHarness({ clock: new SandboxClock({ speed: 0 }) });

	let waitingServer: Server;
	let waitingOrigin = '';
	/** n8n's line: 2.x refuses a resume of an execution that no longer waits, 1.x does not. */
	let n8nLine: '1.x' | '2.x' = '2.x';
	let down = false;
	/** Send and Wait's parameters per question key (the links' `q`), and whether it still waits. */
	const asked = new Map<string, { parameters: INodeParameters; waiting: boolean }>();
	/** Every resume, in order: the question's key and what the node passed on. */
	const resumes: Array<{ key: string; data: IDataObject }> = [];
	const triggers: N8nWebhookHost[] = [];

	beforeAll(async () => {
		waitingServer = createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				void (async () => {
					const url = `${waitingOrigin}${req.url ?? ''}`;
					const key = new URL(url).searchParams.get('q') ?? '';
					const question = asked.get(key);
					if (down) {
						res.writeHead(502, { 'Content-Type': 'text/html' });
						res.end('<html><body>502 Bad Gateway</body></html>');
						return;
					}
					if (!question || (!question.waiting && n8nLine === '2.x')) {
						res.writeHead(409, { 'Content-Type': 'application/json' });
						res.end(JSON.stringify({ message: 'The execution has finished already' }));
						return;
					}
					const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as IDataObject;
					const answer = await callWaitingWebhook(
						h.engine,
						actionNode({ parameters: question.parameters }),
						{ method: 'POST', url, body, headers: { 'content-type': 'application/json' } },
					);
					const resumed = answer.result.workflowData?.[0]?.[0]?.json;
					if (resumed) {
						question.waiting = false;
						resumes.push({ key, data: resumed.data as IDataObject });
					}
					res.writeHead(answer.status ?? 200, { 'Content-Type': 'application/json' });
					res.end(answer.body ?? JSON.stringify(answer.result.webhookResponse ?? {}));
				})();
			});
		});
		await new Promise<void>((resolve) => waitingServer.listen(0, '127.0.0.1', resolve));
		waitingOrigin = `http://127.0.0.1:${(waitingServer.address() as AddressInfo).port}`;
	});

	afterAll(async () => {
		await new Promise<void>((resolve) => waitingServer.close(() => resolve()));
	});

	beforeEach(() => {
		h.sandbox.clock.setSpeed(0);
		h.sandbox.clock.set(Date.now());
		// Seeded again at this time: the harness's reset seeded the chats at the clock an earlier test moved on.
		h.sandbox.reset();
		h.engine.webhookWaitingBaseUrl = `${waitingOrigin}/webhook-waiting`;
		n8nLine = '2.x';
		down = false;
		asked.clear();
		resumes.length = 0;
	});

	afterEach(async () => {
		for (const trigger of triggers.splice(0)) {
			await trigger.settled();
			await trigger.stop();
		}
	});

	/** The account's trigger with Pass Answers on, its n8n building links where the stand-in listens. */
	async function activeTrigger(extra: INodeParameters = {}) {
		const trigger = await activeMessageTrigger(h.sandbox, { answersToSendAndWait: true, ...extra });
		trigger.waitingBaseUrl = `${waitingOrigin}/webhook-waiting`;
		triggers.push(trigger);
		return trigger;
	}

	const question = (extra: INodeParameters = {}): INodeParameters => ({
		resource: 'message',
		operation: 'sendAndWait',
		channel: 'qr',
		sendTo: 'phoneNumber',
		phoneNumber: DEMO.alice.phone,
		message: 'Refund 25 EUR?',
		answerInChat: true,
		approvalOptions: { values: { approvalType: 'double' } },
		...extra,
	});

	/** Sends the question through the node, a second after the last message; its message id and key. */
	async function ask(parameters: INodeParameters) {
		h.sandbox.clock.advance(1000);
		const run = await h.run({ parameters });
		expect(run.error).toBeUndefined();
		const input = run.calls.find((call) => call.tool === 'send_message')?.input as { text: string };
		const key = new URL(/https?:\/\/\S+/.exec(input.text)?.[0] ?? '').searchParams.get('q') ?? '';
		asked.set(key, { parameters, waiting: true });
		return { id: String(run.json[0].messageId), key };
	}

	function say(text: string, quotedMessageId = '') {
		h.sandbox.clock.advance(1000);
		return h.sandbox.inject.injectMessage({
			from: DEMO.alice,
			text,
			...(quotedMessageId ? { quotedMessageId } : {}),
		}).message;
	}

	function accountWrites(text: string) {
		h.sandbox.clock.advance(1000);
		h.sandbox.inject.injectMessage({ from: DEMO.alice, fromMe: true, text });
	}

	const ran = (trigger: N8nWebhookHost) => trigger.executions.flatMap((run) => run.items);
	const texts = (trigger: N8nWebhookHost) => ran(trigger).map((item) => item.json.text);
	const calls = (tool: string) => h.sandbox.calls().filter((call) => call.tool === tool).length;
	return {
		h,
		asked,
		resumes,
		setLine: (line) => void (n8nLine = line),
		setDown: (value) => void (down = value),
		waitingBase: () => `${waitingOrigin}/webhook-waiting`,
		activeTrigger,
		question,
		ask,
		say,
		accountWrites,
		ran,
		texts,
		calls,
	};
}
