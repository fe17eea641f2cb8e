import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeOutput, type N8nRestApi, type N8nExecution } from '../support/n8nRestApi.mjs';
import {
	e2e,
	endpointRegistered,
	n8nApi,
	sandboxControl,
	sandboxCredential,
	unique,
	waitFor,
} from './support/context.mjs';
import { DEFAULT_N8N_VERSION } from '../support/n8nInstall.mjs';
import { nothingQueued } from './support/restartable.mjs';
import { triggerWorkflow } from './support/workflows.mjs';

/*
 * Group Quick Messages on a live clock, the sandbox delivering the events itself as the service
 * does. A busy business number: 150 people each write 4 quick messages, their bursts spread over
 * one minute (about 600 messages a minute), with the read limit of 600 calls a minute per key
 * enforced; grouping, history and Pass Answers to Send and Wait on. Every burst must run once, whole and in order, with about one
 * read each, no 429 and every delivery answered 200 within its 8-s hold. And a person who
 * keeps typing past the longest wait gets each run on time.
 */

const { mode, n8nVersion } = e2e();
// A load test of about three minutes: on the default n8n only; the other versions run the person
// who keeps typing, which exercises the same code on a live clock.
const waveRunsHere = mode === 'regular' && n8nVersion === DEFAULT_N8N_VERSION;
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
	burst?: { error?: string; last_at?: string };
	history?: unknown[];
	/** When n8n started the run (set by the test, not the trigger). */
	startedAt?: number;
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(waveRunsHere)('Group Quick Messages under a reply wave', () => {
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
		const webhookId = randomUUID();
		const workflow = await api.createWorkflow(
			triggerWorkflow(unique('e2e wave'), credential, webhookId, {
				events: ['message.received'],
				groupQuickMessages: true,
				quietWindowSeconds: QUIET_S,
				longestWaitSeconds: 30,
				includeHistory: true,
				historyMessages: 10,
				// As the docs recommend for a reply bot: the answers' check shares each burst's read.
				answersToSendAndWait: true,
			}),
		);
		workflowId = workflow.id;
		await api.activateWorkflow(workflowId);
		await endpointRegistered(webhookId);
	});

	afterAll(async () => {
		await api?.deactivateWorkflow(workflowId).catch(() => undefined);
	});

	/**
	 * Every execution of the workflow: n8n lists at most 100 a page, newest first. n8n 2.41 pages with
	 * the answer's `nextCursor` (and refuses `lastId`); older n8n has no cursor and pages below `lastId`.
	 */
	async function executions(): Promise<Array<{ id: string }>> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const all: Array<{ id: string }> = [];
		for (let next = ''; ; ) {
			const page = await api.request<{
				results: Array<{ id: string }>;
				nextCursor?: string | null;
			}>('GET', `/executions?filter=${filter}&limit=100${next}`);
			all.push(...page.results);
			if (page.results.length < 100 || page.nextCursor === null) return all;
			next = page.nextCursor
				? `&cursor=${encodeURIComponent(page.nextCursor)}`
				: `&lastId=${all[all.length - 1].id}`;
		}
	}

	/** The trigger's item of each run; a copy of a recorded run (runClaim.ts) passes none on. */
	async function runsWithItems(): Promise<RunJson[]> {
		const runs: RunJson[] = [];
		for (const { id } of await executions()) {
			const execution = (await api.getExecution(id)) as N8nExecution & { startedAt?: string };
			const json = nodeOutput(execution, 'Trigger')?.[0];
			if (json)
				runs.push({ ...(json as RunJson), startedAt: Date.parse(execution.startedAt ?? '') });
		}
		return runs;
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
		// Service time against this machine's, to place n8n's start times on the messages' clock.
		const { now } = await sandboxControl<{ now: string }>('GET', '/clock');
		const serviceOffset = Date.parse(now) - Date.now();
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
		const runs = await waitFor(
			`${PEOPLE} runs with items`,
			async () => {
				const withItems = await runsWithItems();
				return withItems.length >= PEOPLE ? withItems : undefined;
			},
			60_000,
		);
		expect(runs).toHaveLength(PEOPLE);
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
		await nothingQueued(`"text":"${tag} `);
		const { deliveries } = await sandboxControl<{
			deliveries: Array<{ payload?: string; attemptLog: Attempt[] }>;
		}>('GET', '/webhooks');
		const ourDeliveries = deliveries.filter((delivery) =>
			delivery.payload?.includes(`"text":"${tag} `),
		);
		const attempts = ourDeliveries.flatMap((delivery) => delivery.attemptLog);
		const answerMs = attempts
			.map((attempt) => attempt.completedAt - attempt.at)
			.sort((a, b) => a - b);
		// Requests open at once: every attempt's start and end, in time order.
		const edges = attempts
			.flatMap((attempt) => [
				[attempt.at, 1],
				[attempt.completedAt, -1],
			])
			.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
		let open = 0;
		const mostOpen = Math.max(...edges.map(([, step]) => (open += step)));
		console.log(
			`[e2e wave] ${ours.length} reads for ${PEOPLE} bursts (${(ours.length / PEOPLE).toFixed(2)} per burst), ${limited.length} × 429; ` +
				`${attempts.length} delivery attempts answered in ms: median ${answerMs[Math.floor(answerMs.length / 2)]}, ` +
				`p95 ${answerMs[Math.floor(answerMs.length * 0.95)]}, max ${answerMs.at(-1)}; at most ${mostOpen} open at once`,
		);
		// Measured, not asserted (a shared two-core machine): how long after its burst closed (its last
		// message plus the quiet window) each run started.
		const afterClose = runs
			.map(
				(json) =>
					((json.startedAt ?? NaN) + serviceOffset - Date.parse(json.burst?.last_at ?? '')) / 1000 -
					QUIET_S,
			)
			.sort((a, b) => a - b);
		console.log(
			`[e2e wave] runs started after their burst closed, in s: median ${afterClose[Math.floor(afterClose.length / 2)].toFixed(1)}, ` +
				`max ${afterClose.at(-1)?.toFixed(1)}; ${afterClose.filter((s) => s > 2).length} of ${runs.length} later than 2 s`,
		);
		expect(limited).toHaveLength(0);
		expect(ours.length).toBeLessThanOrEqual(Math.floor(PEOPLE * 1.05));
		expect(ourDeliveries).toHaveLength(PEOPLE * MESSAGES);
		// Held until a read settles it, 8.5 s at most; one no read settled by then goes back (503) and
		// comes again, which a busy machine may cause now and then. A run's delivery is answered by n8n
		// once it recorded the run: n8n slowed by the wave now and then answers after the service's 10 s,
		// and that delivery comes again and passes nothing on (its run was recorded). How many depends on
		// the machine (2 of 600 alone, 52 beside a queue-mode suite starting its five processes): a
		// speed, not a rule (npm run bench row 6 measures it), so only a wave that mostly comes again fails.
		const handedBack = attempts.filter((attempt) => attempt.statusCode === 503);
		const timedOut = attempts.filter((attempt) => attempt.statusCode === null);
		expect(handedBack.length + timedOut.length).toBeLessThanOrEqual(PEOPLE * MESSAGES * 0.25);
		expect(attempts.filter((attempt) => attempt.statusCode === 200)).toHaveLength(
			PEOPLE * MESSAGES,
		);
		expect(attempts).toHaveLength(PEOPLE * MESSAGES + handedBack.length + timedOut.length);
		// The deliveries that came again ran nothing more.
		expect(await runsWithItems()).toHaveLength(PEOPLE);
	}, 300_000);
});

describe.runIf(mode === 'regular')('Group Quick Messages for a person who keeps typing', () => {
	const LONGEST_S = 12;
	const TYPING_QUIET_S = 3;
	let api: N8nRestApi;
	let workflowId: string;

	beforeAll(async () => {
		await sandboxControl('POST', '/clock', { speed: 1 });
		api = await n8nApi();
		const webhookId = randomUUID();
		const workflow = await api.createWorkflow(
			triggerWorkflow(unique('e2e typing'), await sandboxCredential(api), webhookId, {
				events: ['message.received'],
				groupQuickMessages: true,
				quietWindowSeconds: TYPING_QUIET_S,
				longestWaitSeconds: LONGEST_S,
			}),
		);
		workflowId = workflow.id;
		await api.activateWorkflow(workflowId);
		await endpointRegistered(webhookId);
	});

	afterAll(async () => {
		await api?.deactivateWorkflow(workflowId).catch(() => undefined);
	});

	it('runs each burst within the longest wait + 1 s of its first message, every message in exactly one run', async () => {
		const phone = '447700911111';
		const ids: string[] = [];
		// Every 2 s for 26 s: bursts cut at 12 s and 24 s from their first messages, the last one by its quiet window.
		for (let index = 0; index < 14; index++) {
			if (index > 0) await pause(2000);
			const { message } = await sandboxControl<{ message: { id: string } }>(
				'POST',
				'/inject/message',
				{ from: { phone, name: 'Typist' }, text: `typing ${index}` },
			);
			ids.push(message.id);
		}
		// Service time against this machine's, to place n8n's start times on the messages' clock.
		const { now } = await sandboxControl<{ now: string }>('GET', '/clock');
		const serviceOffset = Date.parse(now) - Date.now();
		await waitFor('three runs', async () =>
			(await api.listExecutions(workflowId)).length >= 3 ? true : undefined,
		);
		await pause((TYPING_QUIET_S + 2) * 1000);
		const executions = await Promise.all(
			(await api.listExecutions(workflowId)).map(async ({ id }) => await api.getExecution(id)),
		);
		const runs = executions.map((execution) => ({
			startedAt: Date.parse((execution as { startedAt?: string }).startedAt ?? '') + serviceOffset,
			json: nodeOutput(execution, 'Trigger')?.[0] as RunJson & {
				message_ids: string[];
				burst: { first_at: string; closed_by: string };
			},
		}));
		const lateness = runs.map(
			({ startedAt, json }) => (startedAt - Date.parse(json.burst.first_at)) / 1000,
		);
		console.log(
			`[e2e typing] ${runs.length} runs of ${runs.map(({ json }) => json.message_ids.length).join(', ')} messages, started ${lateness.map((s) => s.toFixed(1)).join(', ')} s after their first message (${runs.map(({ json }) => json.burst.closed_by).join(', ')})`,
		);
		// Every message in exactly one run; how the 26 s split depends on how evenly a busy machine wrote them.
		expect(runs.flatMap(({ json }) => json.message_ids).sort()).toEqual([...ids].sort());
		const cut = runs.filter(({ json }) => json.burst.closed_by === 'longest_wait');
		expect(cut.length).toBeGreaterThanOrEqual(1);
		for (const [index, { json }] of runs.entries())
			if (json.burst.closed_by === 'longest_wait')
				expect(lateness[index]).toBeLessThanOrEqual(LONGEST_S + 1);
	}, 120_000);
});
