import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeOutput, type N8nRestApi, type N8nExecution } from '../support/n8nRestApi.mjs';
import {
	e2e,
	n8nApi,
	sandboxControl,
	sandboxCredential,
	unique,
	waitFor,
} from './support/context.mjs';
import { triggerWorkflow } from './support/workflows.mjs';

/*
 * A busy business number: 150 people each write 4 quick messages, their bursts spread over one
 * minute (about 600 messages a minute), delivered by the sandbox as the service delivers, with
 * its read limit of 600 calls a minute per key enforced. Grouping and history are on. Every burst
 * must run once, whole and in order, with about one read each, no 429 and every delivery answered
 * within the quiet window plus 2 s.
 */

const { mode } = e2e();
const PEOPLE = 150;
const MESSAGES = 4;
const QUIET_S = 5;
/** A person's messages, and the next person's first message. */
const GAP_MS = 800;
const STAGGER_MS = 400;

interface Call {
	tool: string;
	status: number;
	errorCode?: string;
	input: { conversationId?: string };
}
interface Attempt {
	at: number;
	completedAt: number;
	statusCode: number | null;
}
type RunJson = {
	messages?: Array<{ text: string; from?: { phone?: string } }>;
	burst?: { error?: string };
	history?: unknown[];
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(mode === 'regular')('Group Quick Messages under a reply wave', () => {
	let api: N8nRestApi;
	let workflowId: string;
	const tag = randomUUID().slice(0, 4);
	const phones = Array.from(
		{ length: PEOPLE },
		(_, index) => `4477009${String(index).padStart(5, '0')}`,
	);

	beforeAll(async () => {
		await sandboxControl('POST', '/clock', { speed: 1 });
		api = await n8nApi();
		const credential = await sandboxCredential(api);
		const workflow = await api.createWorkflow(
			triggerWorkflow(unique('e2e wave'), credential, randomUUID(), {
				events: ['message.received'],
				groupQuickMessages: true,
				quietWindowSeconds: QUIET_S,
				longestWaitSeconds: 30,
				includeHistory: true,
				historyMessages: 10,
			}),
		);
		workflowId = workflow.id;
		await api.activateWorkflow(workflowId);
	});

	afterAll(async () => {
		await api?.deactivateWorkflow(workflowId).catch(() => undefined);
	});

	async function executions(): Promise<Array<{ id: string }>> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const page = await api.request<{ results: Array<{ id: string }> }>(
			'GET',
			`/executions?filter=${filter}&limit=500`,
		);
		return page.results;
	}

	it(`runs ${PEOPLE} bursts of ${MESSAGES} once each, with about one read per burst and no 429`, async () => {
		const plan = phones
			.flatMap((phone, person) =>
				Array.from({ length: MESSAGES }, (_, index) => ({
					at: person * STAGGER_MS + index * GAP_MS,
					phone,
					text: `${tag} ${index + 1}`,
				})),
			)
			.sort((a, b) => a.at - b.at);
		const started = Date.now();
		for (const step of plan) {
			const wait = started + step.at - Date.now();
			if (wait > 0) await pause(wait);
			const { saved } = await sandboxControl('POST', '/inject/message', {
				from: { phone: step.phone, name: `Customer ${step.phone.slice(-3)}` },
				text: step.text,
			});
			expect(saved).toBe(true);
		}
		console.log(
			`[e2e wave] ${plan.length} messages saved in ${((Date.now() - started) / 1000).toFixed(1)} s`,
		);

		await waitFor(
			`${PEOPLE} runs`,
			async () => ((await executions()).length >= PEOPLE ? true : undefined),
			120_000,
		);
		// A further quiet window: nothing more starts.
		await pause((QUIET_S + 2) * 1000);
		const all = await executions();
		expect(all).toHaveLength(PEOPLE);
		const runs: RunJson[] = [];
		for (const { id } of all)
			runs.push(
				nodeOutput((await api.getExecution(id)) as N8nExecution, 'Trigger')?.[0] as RunJson,
			);
		expect(new Set(runs.map((json) => json.messages?.[0]?.from?.phone)).size).toBe(PEOPLE);
		for (const json of runs) {
			expect(json.burst?.error).toBeUndefined();
			expect(json.messages?.map((message) => message.text)).toEqual(
				Array.from({ length: MESSAGES }, (_, index) => `${tag} ${index + 1}`),
			);
			expect(Array.isArray(json.history)).toBe(true);
		}

		const conversations = new Set(phones.map((phone) => `${phone}@s.whatsapp.net`));
		const { calls } = await sandboxControl<{ calls: Call[] }>('GET', '/calls');
		const ours = calls.filter(
			(call) => call.tool === 'get_messages' && conversations.has(call.input.conversationId ?? ''),
		);
		const limited = ours.filter((call) => call.status === 429);
		const { deliveries } = await sandboxControl<{
			deliveries: Array<{ payload?: string; attemptLog: Attempt[] }>;
		}>('GET', '/webhooks');
		const attempts = deliveries
			.filter((delivery) => delivery.payload?.includes(`"text":"${tag} `))
			.flatMap((delivery) => delivery.attemptLog);
		const answerMs = attempts
			.map((attempt) => attempt.completedAt - attempt.at)
			.sort((a, b) => a - b);
		console.log(
			`[e2e wave] ${ours.length} reads for ${PEOPLE} bursts (${(ours.length / PEOPLE).toFixed(2)} per burst), ${limited.length} × 429; ` +
				`${attempts.length} delivery attempts answered in ms: median ${answerMs[Math.floor(answerMs.length / 2)]}, ` +
				`p95 ${answerMs[Math.floor(answerMs.length * 0.95)]}, max ${answerMs.at(-1)}`,
		);
		expect(limited).toHaveLength(0);
		expect(ours.length).toBeLessThanOrEqual(Math.floor(PEOPLE * 1.25));
		expect(attempts).toHaveLength(PEOPLE * MESSAGES);
		expect(attempts.every((attempt) => attempt.statusCode === 200)).toBe(true);
		expect(answerMs.at(-1)).toBeLessThanOrEqual((QUIET_S + 2) * 1000);
	}, 300_000);
});
