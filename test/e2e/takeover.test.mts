import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { N8nExecution, N8nRestApi } from '../support/n8nRestApi.mjs';
import {
	e2e,
	n8nApi,
	sandboxControl,
	sandboxCredential,
	unique,
	waitFor,
} from './support/context.mjs';
import { messageReceivedEvent, postSigned, untilServed } from './support/deliveries.mjs';
import { triggerWorkflow, workflowNode } from './support/workflows.mjs';

/*
 * Human Takeover in a real n8n: the trigger's two outputs wired to two different nodes ("Bot" and
 * "People"). Messages are saved in the sandbox (clock held still, moved by hand) and their events
 * delivered by the test, signed as the service signs them; the account's own messages (the
 * commands) are typed on the phone (the sandbox's inject with fromMe). Each test writes in chats
 * of its own numbers. In queue mode the deliveries alternate between both webhook processes: a
 * pause seen by one process holds for the other.
 */

const { mode, webhookBaseUrls } = e2e();
const SECRET = `whsec_${Buffer.from('e2e-takeover-secret-32-bytes-ok!').toString('base64')}`;
const QUIET_S = 2;
const HOUR = 3_600_000;

type Route = 'bot' | 'people';
interface RunJson {
	text: string;
	takeover?: { paused: boolean | null; by: string | null; message_id: string | null };
	messages?: Array<{ text: string }>;
}

let phones = 0;
/** A number no other test writes from, so no other chat's commands reach it. */
const newPhone = () =>
	`4915${String(Date.now() % 1e6).padStart(6, '0')}${String(++phones).padStart(2, '0')}`;

async function advance(ms: number) {
	await sandboxControl('POST', '/clock', { advanceMs: ms });
}

/**
 * The account's own message in the chat with `phone`, typed on the phone (sandbox time: 15 s after
 * the last, or `writtenAgoMs` before that when the phone was offline). Not an API send: the suite's later QR sends must not meet a per-minute count left in
 * the sandbox's future when this file sets the clock back.
 */
async function own(phone: string, text: string, writtenAgoMs = 0) {
	await advance(15_000);
	const { saved } = await sandboxControl('POST', '/inject/message', {
		from: { phone },
		fromMe: true,
		text,
		savedLateMs: writtenAgoMs,
	});
	expect(saved).toBe(true);
}

function takeoverWorkflow(credential: { id: string; name: string }, webhookId: string, extra = {}) {
	const base = triggerWorkflow(unique('e2e takeover'), credential, webhookId, {
		registration: 'dashboard',
		signingSecret: SECRET,
		events: ['message.received'],
		humanTakeover: true,
		handoverWords: 'human, talk to a person',
		resumeAfterHours: 12,
		...extra,
	});
	return {
		...base,
		nodes: [
			...base.nodes,
			workflowNode('Bot', 'n8n-nodes-base.noOp', 1, [300, -100], {}),
			workflowNode('People', 'n8n-nodes-base.noOp', 1, [300, 100], {}),
		],
		connections: {
			Trigger: {
				main: [
					[{ node: 'Bot', type: 'main', index: 0 }],
					[{ node: 'People', type: 'main', index: 0 }],
				],
			},
		},
	};
}

/**
 * The trigger's items per output and whether each downstream node ran; `passedNothing` for an
 * execution that passed nothing on (a grouped delivery whose burst another webhook process ran
 * starts a run of its own at its deadline, which its claim empties: docs/conversations.md).
 */
function routeOf(
	execution: N8nExecution,
): { route: Route; json: RunJson } | 'passedNothing' | undefined {
	const runData = (execution.data as { resultData?: { runData?: Record<string, any[]> } })
		?.resultData?.runData;
	const outputs = runData?.Trigger?.[0]?.data?.main as Array<Array<{ json: RunJson }>> | undefined;
	if (!outputs) return undefined;
	const [bot = [], people = []] = outputs;
	if (bot.length + people.length === 0) return 'passedNothing';
	expect(bot.length + people.length).toBe(1);
	const route: Route = bot.length === 1 ? 'bot' : 'people';
	// The item reached the node on its output, and only that one.
	expect(Boolean(runData?.Bot)).toBe(route === 'bot');
	expect(Boolean(runData?.People)).toBe(route === 'people');
	return { route, json: (bot[0] ?? people[0]).json };
}

describe(`Human Takeover in a real n8n (${mode} mode)`, () => {
	let api: N8nRestApi;
	const workflows: Array<{ id: string; webhookId: string }> = [];
	let deliveries = 0;

	async function activeWorkflow(extra = {}) {
		const credential = await sandboxCredential(api);
		const webhookId = randomUUID();
		const workflow = await api.createWorkflow(takeoverWorkflow(credential, webhookId, extra));
		await api.activateWorkflow(workflow.id);
		await untilServed(webhookBaseUrls, webhookId);
		workflows.push({ id: workflow.id, webhookId });
		return { id: workflow.id, webhookId };
	}

	/** Saves the person's message and delivers its event, alternating between webhook processes. */
	/** Saves a person's message written `afterMs` after the previous one. */
	async function save(phone: string, text: string, afterMs: number): Promise<unknown> {
		await advance(afterMs);
		const { saved, message } = await sandboxControl('POST', '/inject/message', {
			from: { phone, name: 'Takeover Tester' },
			text,
		});
		expect(saved).toBe(true);
		return message;
	}

	/** Delivers a saved message's event; resolves once it was answered 200. */
	async function deliver(
		workflow: { webhookId: string },
		message: unknown,
		webhookProcess: number,
	) {
		const base = webhookBaseUrls[webhookProcess % webhookBaseUrls.length];
		const url = `${base}/webhook/${workflow.webhookId}/webhook`;
		// Signed as the sandbox sends it now: this file moves its clock by hand, and a message stamped
		// after its delivery was sent teaches the trigger nothing about the service's clock.
		const { now } = await sandboxControl<{ now: string }>('GET', '/clock');
		const sent = await postSigned(
			url,
			SECRET,
			messageReceivedEvent(message),
			undefined,
			new Date(now),
		);
		expect(sent.status).toBe(200);
	}

	async function say(
		workflow: { webhookId: string },
		phone: string,
		text: string,
		afterMs = 1000,
		webhookProcess = deliveries,
	) {
		const message = await save(phone, text, afterMs);
		deliveries++;
		await deliver(workflow, message, webhookProcess);
	}

	/** The finished runs of `workflow` that passed something on, once there are `count`. */
	async function runs(workflow: { id: string }, count: number) {
		return await waitFor(`${count} runs`, async () => {
			const listed = await api.listExecutions(workflow.id);
			const routed = await Promise.all(
				listed.map(async (execution) => routeOf(await api.getExecution(execution.id))),
			);
			if (routed.some((run) => run === undefined)) return undefined;
			const passed = routed.filter(
				(run): run is { route: Route; json: RunJson } =>
					run !== undefined && run !== 'passedNothing',
			);
			return passed.length >= count ? passed : undefined;
		});
	}

	/** Where the run holding `text` came out. */
	async function routeOfText(workflow: { id: string }, count: number, text: string) {
		const found = (await runs(workflow, count)).filter((run) => run?.json.text === text);
		expect(found, `one run holding "${text}"`).toHaveLength(1);
		return found[0]?.route;
	}

	/** Where the sandbox clock stood when this file began, against this machine's. */
	let clockAtStart = { sandbox: 0, real: 0 };

	beforeAll(async () => {
		api = await n8nApi();
		const { now } = await sandboxControl<{ now: string }>('GET', '/clock');
		clockAtStart = { sandbox: Date.parse(now), real: Date.now() };
		await sandboxControl('POST', '/clock', { speed: 0 });
	});

	afterAll(async () => {
		// Back to where the clock would be without this file's steps (a minute or two), so the deliveries'
		// signatures are current again; never earlier, or the sends and calls of files before this one
		// would stand in the future and fill the per-minute limits for the files after it.
		await sandboxControl('POST', '/clock', {
			set: clockAtStart.sandbox + (Date.now() - clockAtStart.real),
			speed: 1,
		});
		for (const workflow of workflows)
			await api.deactivateWorkflow(workflow.id).catch(() => undefined);
	});

	it(
		'routes by the pause command and the resume command; another conversation meanwhile goes to the bot',
		{ tags: ['every-line'] },
		async () => {
			const workflow = await activeWorkflow();
			const [person, other] = [newPhone(), newPhone()];
			await own(person, '/bot off');
			await say(workflow, person, 'paused one');
			expect(await routeOfText(workflow, 1, 'paused one')).toBe('people');
			await say(workflow, other, 'another chat meanwhile');
			expect(await routeOfText(workflow, 2, 'another chat meanwhile')).toBe('bot');
			await say(workflow, person, 'paused two');
			const runsSoFar = await runs(workflow, 3);
			const pausedTwo = runsSoFar.find((run) => run?.json.text === 'paused two');
			expect(pausedTwo?.route).toBe('people');
			expect(pausedTwo?.json.takeover).toMatchObject({ paused: true, by: 'command' });
			await own(person, '/bot on');
			await say(workflow, person, 'back to the bot');
			expect(await routeOfText(workflow, 4, 'back to the bot')).toBe('bot');
		},
	);

	it('routes a hand-over message and the next one to the people; "please /bot off now" and a person writing /bot off pause nothing', async () => {
		const workflow = await activeWorkflow();
		const [asks, commandInText, personTypes] = [newPhone(), newPhone(), newPhone()];
		// In queue mode the hand-over reaches one webhook process and the next message the other.
		await say(workflow, asks, 'Can I TALK TO A PERSON?', 1000, 0);
		await say(workflow, asks, 'hello?', 1000, 1);
		await own(commandInText, 'please /bot off now');
		await say(workflow, commandInText, 'still the bot');
		await say(workflow, personTypes, '/bot off');
		await say(workflow, personTypes, 'bot please');
		const all = await runs(workflow, 5);
		const routes = Object.fromEntries(all.map((run) => [run?.json.text, run?.route]));
		expect(routes).toEqual({
			'Can I TALK TO A PERSON?': 'people',
			'hello?': 'people',
			'still the bot': 'bot',
			'/bot off': 'bot',
			'bot please': 'bot',
		});
		expect(all.filter((run) => run?.json.text === 'hello?')[0]?.json.takeover).toMatchObject({
			paused: true,
			by: 'handover',
		});
	});

	it('sends the bot a message written after the pause is older than Resume After', async () => {
		const workflow = await activeWorkflow();
		const person = newPhone();
		// Typed on the phone 12 hours and a minute ago: the clock need not jump, so the deliveries
		// stay signed with the sandbox's time, as the service signs them.
		await own(person, '/bot off', 12 * HOUR + 60_000);
		await say(workflow, person, 'next day');
		expect(await routeOfText(workflow, 1, 'next day')).toBe('bot');
	});

	it("with Group Quick Messages, gives a paused person's three quick messages one run on the people's output, in written order", async () => {
		const workflow = await activeWorkflow({
			groupQuickMessages: true,
			quietWindowSeconds: QUIET_S,
			longestWaitSeconds: 30,
		});
		const person = newPhone();
		await own(person, '/bot off');
		// As the service does, each delivery goes out without waiting for the answers to earlier ones.
		const answered: Array<Promise<void>> = [];
		for (const text of ['one', 'two', 'three'])
			answered.push(deliver(workflow, await save(person, text, 300), deliveries++));
		await Promise.all(answered);
		const [run] = await runs(workflow, 1);
		expect(run?.route).toBe('people');
		expect(run?.json.messages?.map((message) => message.text)).toEqual(['one', 'two', 'three']);
		// Another quiet window: the first two messages passed nothing on.
		await new Promise((resolve) => setTimeout(resolve, (QUIET_S + 2) * 1000));
		expect(await runs(workflow, 1)).toHaveLength(1);
	});
});
