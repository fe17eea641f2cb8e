import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeOutput, type N8nRestApi, type N8nWorkflow } from '../support/n8nRestApi.mjs';
import {
	e2e,
	n8nApi,
	sandboxControl,
	sandboxCredential,
	unique,
	waitFor,
} from './support/context.mjs';
import { messageReceivedEvent, postSigned, untilServed } from './support/deliveries.mjs';
import { triggerWorkflow } from './support/workflows.mjs';

/*
 * Group Quick Messages in a real n8n. Messages are saved in the sandbox (its clock held still and
 * moved by hand, so their timestamps, which alone decide the bursts, are exact) and their events
 * delivered by the test, signed as the service signs them: that lets it time every answer, send
 * concurrent copies, and in queue mode deal one burst alternately to both webhook processes.
 */

const { mode, webhookBaseUrls } = e2e();
const SECRET = `whsec_${Buffer.from('e2e-conversation-secret-32-bytes').toString('base64')}`;
const QUIET_S = 3;
const LONGEST_S = 5;
const ALICE = { phone: '4915112345678', name: 'Alice Example' };
const BOB = { phone: '447700900123', name: 'Bob Example' };

interface Delivery {
	url: string;
	webhookId: string;
	body: string;
}
interface Answer {
	status: number;
	ms: number;
	duplicate: boolean;
}
type RunJson = {
	messages?: Array<{ text: string }>;
	burst?: { closed_by: string; message_count: number };
	text: string;
};

describe(`Group Quick Messages in a real n8n (${mode} mode)`, () => {
	let api: N8nRestApi;
	let workflow: N8nWorkflow;
	let webhookId: string;
	const tag = randomUUID().slice(0, 6);

	/** Saves an incoming message written `afterMs` after the previous one and returns its event. */
	async function say(from: typeof ALICE, text: string, afterMs: number): Promise<string> {
		await sandboxControl('POST', '/clock', { advanceMs: afterMs });
		const { saved, message } = await sandboxControl('POST', '/inject/message', {
			from,
			text: `${text} ${tag}`,
		});
		expect(saved).toBe(true);
		return messageReceivedEvent(message);
	}

	function delivery(body: string, processIndex: number): Delivery {
		const base = webhookBaseUrls[processIndex % webhookBaseUrls.length];
		return {
			url: `${base}/webhook/${webhookId}/webhook`,
			webhookId: `msg_${randomUUID().replaceAll('-', '')}`,
			body,
		};
	}

	/** Posts a delivery signed as the sandbox, whose clock this file moves, sends it now. */
	async function post({ url, webhookId: id, body }: Delivery): Promise<Answer> {
		const { now } = await sandboxControl<{ now: string }>('GET', '/clock');
		const started = performance.now();
		const { status, answer } = await postSigned(url, SECRET, body, id, new Date(now));
		return { status, ms: performance.now() - started, duplicate: answer.duplicate === true };
	}

	/** get_messages calls so far for these people's conversations. */
	async function readsOf(people: Array<typeof ALICE>): Promise<number> {
		const conversations = new Set(people.map((person) => `${person.phone}@s.whatsapp.net`));
		const { calls } = await sandboxControl<{
			calls: Array<{ tool: string; input: { conversationId?: string } }>;
		}>('GET', '/calls');
		return calls.filter(
			(call) => call.tool === 'get_messages' && conversations.has(call.input.conversationId ?? ''),
		).length;
	}

	async function runs(): Promise<RunJson[]> {
		const executions = await api.listExecutions(workflow.id);
		const finished = await Promise.all(
			executions.map((execution) => api.getExecution(execution.id)),
		);
		return finished
			.map((execution) => nodeOutput(execution, 'Trigger')?.[0] as RunJson)
			.filter((json) => json !== undefined);
	}

	const textsOf = (json: RunJson) =>
		(json.messages ?? []).map((message) => message.text.replace(` ${tag}`, ''));

	async function runsContaining(count: number, what: string): Promise<RunJson[]> {
		return await waitFor(what, async () => {
			const all = await runs();
			return all.length >= count ? all : undefined;
		});
	}

	function report(label: string, answers: Answer[]) {
		const ms = answers.map((answer) => Math.round(answer.ms)).sort((a, b) => a - b);
		console.log(
			`[e2e conversation ${mode}] ${label}: ${answers.length} answers, statuses ${[...new Set(answers.map((a) => a.status))].join(',')}, ms min ${ms[0]} median ${ms[Math.floor(ms.length / 2)]} max ${ms.at(-1)}; under 1 s: ${ms.filter((value) => value < 1000).length}/${ms.length}`,
		);
		expect(answers.every((answer) => answer.status === 200)).toBe(true);
		// A grouped delivery is held until its outcome is settled: never past the quiet window plus 1 s
		// in one process; with two webhook processes, a delivery whose burst the other one runs is
		// answered once a recorded run holds its message, or starts the run itself at its 8.5 s
		// (docs/conversations.md): inside the service's 10 s either way.
		expect(Math.max(...ms)).toBeLessThan(mode === 'queue' ? 10_000 : (QUIET_S + 2) * 1000);
	}

	beforeAll(async () => {
		api = await n8nApi();
		const credential = await sandboxCredential(api);
		webhookId = randomUUID();
		workflow = await api.createWorkflow(
			triggerWorkflow(unique('e2e conversation'), credential, webhookId, {
				registration: 'dashboard',
				signingSecret: SECRET,
				events: ['message.received'],
				groupQuickMessages: true,
				quietWindowSeconds: QUIET_S,
				longestWaitSeconds: LONGEST_S,
			}),
		);
		await api.activateWorkflow(workflow.id);
		await untilServed(webhookBaseUrls, webhookId);
		await sandboxControl('POST', '/clock', { speed: 0 });
	});

	afterAll(async () => {
		await sandboxControl('POST', '/clock', { speed: 1 });
		if (workflow) await api.deactivateWorkflow(workflow.id).catch(() => undefined);
	});

	it(
		`runs 5 quick messages of one person and 2 of another as 2 executions in written order${mode === 'queue' ? ', a burst dealt alternately to both webhook processes' : ''}; a concurrent redelivery starts nothing`,
		{ tags: ['every-line'] },
		async () => {
			if (mode === 'queue') expect(webhookBaseUrls.length).toBe(2);
			const plan: Array<[typeof ALICE, string, number]> = [
				[ALICE, 'hi', 0],
				[ALICE, 'I ordered yesterday', 600],
				[BOB, 'hello', 100],
				[ALICE, 'order 4411', 500],
				[ALICE, 'where is it??', 600],
				[BOB, 'anyone?', 300],
				[ALICE, 'thanks', 300],
			];
			const readsBefore = await readsOf([ALICE, BOB]);
			const deliveries: Delivery[] = [];
			const answering: Array<Promise<Answer>> = [];
			// As the service does, each delivery goes out without waiting for the answers to earlier ones.
			for (const [index, [from, text, afterMs]] of plan.entries()) {
				deliveries.push(delivery(await say(from, text, afterMs), index));
				answering.push(post(deliveries[index]));
			}
			const answers = await Promise.all(answering);
			const copies = await Promise.all(deliveries.map(post));
			report('7 deliveries', answers);
			report('7 concurrent redeliveries', copies);
			expect(copies.every((copy) => copy.duplicate)).toBe(true);
			// One read per burst in each process that received part of it; with two processes, a process
			// whose delivery the other's run carries reads once more at that delivery's 8.5 s, to start
			// the run itself when no recorded run holds it (finding B, docs/conversations.md).
			const reads = (await readsOf([ALICE, BOB])) - readsBefore;
			console.log(`[e2e conversation ${mode}] ${reads} get_messages reads for 2 bursts`);
			const perBurstAndProcess = webhookBaseUrls.length > 1 ? 2 : 1;
			expect(reads).toBeLessThanOrEqual(2 * webhookBaseUrls.length * perBurstAndProcess);

			const [first, second] = await runsContaining(2, 'two runs');
			const byFirstText = new Map([first, second].map((json) => [textsOf(json)[0], json]));
			expect(textsOf(byFirstText.get('hi') as RunJson)).toEqual([
				'hi',
				'I ordered yesterday',
				'order 4411',
				'where is it??',
				'thanks',
			]);
			expect(textsOf(byFirstText.get('hello') as RunJson)).toEqual(['hello', 'anyone?']);
			// A further quiet window: the copies and the non-final messages started nothing.
			await new Promise((resolve) => setTimeout(resolve, (QUIET_S + 2) * 1000));
			expect(await runs()).toHaveLength(2);
		},
	);

	it('starts a third execution for a message written after the quiet window', async () => {
		await post(delivery(await say(ALICE, 'one more thing', (QUIET_S + 1) * 1000), 0));
		const all = await runsContaining(3, 'a third run');
		expect(all.map(textsOf)).toContainEqual(['one more thing']);
	});

	it('gives a person who writes every 2 s for longer than the longest wait a run at the longest wait', async () => {
		const before = (await runs()).length;
		// Written first, delivered after: the sandbox's clock jumps 2 s a message, where the service's
		// runs as n8n's does. A delivery posted between the jumps would teach a process a service time
		// later than any read it has in flight could show (receive/serviceClock.ts keeps one offset),
		// and that read would vouch for 2 s it never saw.
		const bodies: string[] = [];
		for (const [index, text] of ['t0', 't2', 't4', 't6', 't8'].entries())
			bodies.push(await say(ALICE, text, index === 0 ? (QUIET_S + 1) * 1000 : 2000));
		await Promise.all(bodies.map(async (body, index) => await post(delivery(body, index))));
		const all = await runsContaining(before + 2, 'two runs of the long writer');
		const long = all.filter((json) => textsOf(json)[0]?.startsWith('t'));
		expect(long.map(textsOf).sort()).toEqual([
			['t0', 't2', 't4'],
			['t6', 't8'],
		]);
		expect(long.find((json) => textsOf(json)[0] === 't0')?.burst?.closed_by).toBe('longest_wait');
	});
});
