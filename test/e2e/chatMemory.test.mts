import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertCredential } from '../dev/stack.mjs';
import { executionError, type N8nRestApi } from '../support/n8nRestApi.mjs';
import {
	e2e,
	endpointRegistered,
	n8nApi,
	sandboxControl,
	sandboxCredential,
	waitFor,
} from './support/context.mjs';
import { DEFAULT_N8N_VERSION, installPaths } from '../support/n8nInstall.mjs';
import { ownN8n } from './support/ownN8n.mjs';
import { startScriptedModel, type ScriptedModel } from './support/scriptedModel.mjs';
import { memoryWorkflow } from './support/workflows.mjs';

/*
 * The chat memory under n8n's own AI Agent, with n8n's OpenAI Chat Model pointed at the scripted
 * model: each turn the model answers through the Reply tool, and its request shows what the
 * memory gave it. Regular mode: on an n8n of its own, a turn, staff typing on the phone, a restart
 * of n8n, then a grouped burst. Queue mode: turns until two different workers ran them. n8n 1.x
 * has no AI node SDK: the package loads, and the memory says it needs n8n 2.x.
 */

const { mode, n8nVersion } = e2e();
const needsSdk = Number(n8nVersion.split('.')[0]) < 2;
// The memory's runs are proven on the default n8n (2.40.7); other 2.x releases wait for their own run.
const provenHere = n8nVersion === DEFAULT_N8N_VERSION;
const SYSTEM = 'You answer the customer in their chat through the Reply tool.';

/** The model's one reply per turn: what it was asked, so the chat shows which turn it answered. */
const replyTo = (prompt: string) => `(scripted) about: ${prompt.split('\n').join(' / ')}`;

interface Exchange {
	role: string;
	text: string;
}

/** The chat messages of a Chat Completions request, as role and text. */
function exchanges(body: Record<string, any>): Exchange[] {
	return (body.messages as Array<{ role: string; content: unknown }>).map((message) => ({
		role: message.role,
		text:
			typeof message.content === 'string'
				? message.content
				: (message.content as Array<{ text?: string }>).map((part) => part.text ?? '').join(''),
	}));
}

/** One person's chat, and the runs of one workflow answering it. */
function chat(sender: string, api: () => N8nRestApi, workflowId: () => string) {
	return {
		async say(text: string) {
			await sandboxControl('POST', '/inject/message', {
				channel: 'business',
				from: { phone: sender, name: 'Dana' },
				text,
			});
		},
		/** Staff typing in the chat on the phone: the account's own message, no API send. */
		async staffTypes(text: string) {
			await sandboxControl('POST', '/inject/message', {
				channel: 'business',
				from: { phone: sender },
				fromMe: true,
				text,
			});
		},
		async finishedRuns(count: number) {
			return await waitFor(
				`${count} finished runs`,
				async () => {
					const list = await api().listExecutions(workflowId());
					return list.length >= count &&
						list.every((run) => !['running', 'new', 'waiting'].includes(run.status))
						? list
						: undefined;
				},
				120_000,
			);
		},
	};
}

/** n8n's own SDK or none, never the project's development copy: see support/onlyN8nsSdk.cjs. */
const ONLY_N8NS_SDK = {
	NODE_OPTIONS: `--require ${new URL('./support/onlyN8nsSdk.cjs', import.meta.url).pathname}`,
	E2E_N8N_MODULES: installPaths().n8nModules,
};

/**
 * A folder outside the project for an n8n of its own, removed after the describe: there the
 * package's `require('@n8n/ai-node-sdk')` finds n8n's own SDK or none, as in a real install.
 */
function outsideProject(): string {
	const folder = mkdtempSync(join(tmpdir(), 'e2e-chat-memory-'));
	afterAll(() => rmSync(folder, { recursive: true, force: true }));
	return folder;
}

/** The model's first request of the turn that answered `prompt`: what the Agent sent with it. */
function turnRequest(model: ScriptedModel, prompt: string): Exchange[] {
	const request = model.requests.find(
		(candidate) => candidate.prompt === prompt && candidate.toolResults.length === 0,
	);
	expect(request, `a model request for ${JSON.stringify(prompt)}`).toBeDefined();
	return exchanges(request!.body);
}

/**
 * The scripted model, and the memory workflow answering with it on `api`'s n8n, active and its
 * endpoint registered with the sandbox.
 */
async function answering(api: N8nRestApi, trigger: Record<string, unknown>) {
	const model = await startScriptedModel((prompt) => [{ Text: replyTo(prompt) }]);
	const modelCredential = await upsertCredential(
		api,
		`e2e scripted model ${randomUUID()}`,
		{ apiKey: 'sk-scripted-model', url: model.url, header: false },
		'openAiApi',
	);
	const webhookId = randomUUID();
	const workflow = await api.createWorkflow(
		memoryWorkflow(await sandboxCredential(api), modelCredential, webhookId, {
			systemMessage: SYSTEM,
			trigger,
		}),
	);
	await api.activateWorkflow(workflow.id);
	await endpointRegistered(webhookId);
	return { model, workflowId: workflow.id };
}

describe.runIf(mode === 'regular' && provenHere)(
	'chat memory under the AI Agent, through a restart of n8n',
	() => {
		const own = ownN8n('memory', outsideProject(), ONLY_N8NS_SDK);
		let model: ScriptedModel;
		let workflowId = '';
		const dana = chat(
			'4915198765511',
			() => own.api!,
			() => workflowId,
		);

		beforeAll(async () => {
			await sandboxControl('POST', '/clock', { speed: 1 });
			await own.start();
			({ model, workflowId } = await answering(own.api!, {
				groupQuickMessages: true,
				quietWindowSeconds: 3,
				longestWaitSeconds: 30,
			}));
		}, 240_000);

		afterAll(async () => {
			await own.api?.deactivateWorkflow(workflowId).catch(() => undefined);
			await own.n8n?.stop();
			await model?.stop();
		});

		it('gives the model the person, the bot and staff in order, and the new burst once, after a restart', async () => {
			const first = 'mem-e2e: do you ship to Spain?';
			await dana.say(first);
			await dana.finishedRuns(1);
			await dana.staffTypes('mem-e2e staff: a colleague will check your order.');
			process.kill(-own.n8n!.pid, 'SIGTERM');
			await own.n8n!.exited;
			await own.start();

			await dana.say('hi again');
			await dana.say('order 4411, where is it?');
			const runs = await dana.finishedRuns(2);
			expect(runs.map((run) => run.status)).toEqual(['success', 'success']);

			const burst = 'hi again\norder 4411, where is it?';
			expect(turnRequest(model, burst)).toEqual([
				{ role: 'system', text: expect.stringContaining(SYSTEM) },
				{ role: 'user', text: first },
				{ role: 'assistant', text: replyTo(first) },
				{ role: 'assistant', text: 'mem-e2e staff: a colleague will check your order.' },
				{ role: 'user', text: burst },
			]);
			// The first turn had nothing before it: the memory holds no more than the chat.
			expect(turnRequest(model, first)).toEqual([
				{ role: 'system', text: expect.stringContaining(SYSTEM) },
				{ role: 'user', text: first },
			]);
		}, 400_000);
	},
);

/**
 * The suite's n8n answering `sender` with the memory workflow (trigger options `trigger`), set up
 * before the describe's tests and taken down after them.
 */
function useAnswering(sender: string, trigger: Record<string, unknown>) {
	const setUp: { api?: N8nRestApi; model?: ScriptedModel; workflowId: string } = { workflowId: '' };
	beforeAll(async () => {
		await sandboxControl('POST', '/clock', { speed: 1 });
		setUp.api = await n8nApi();
		Object.assign(setUp, await answering(setUp.api, trigger));
	});
	afterAll(async () => {
		await setUp.api?.deactivateWorkflow(setUp.workflowId).catch(() => undefined);
		await setUp.model?.stop();
	});
	return {
		api: () => setUp.api!,
		model: () => setUp.model!,
		dana: chat(
			sender,
			() => setUp.api!,
			() => setUp.workflowId,
		),
	};
}

describe.runIf(mode === 'queue' && provenHere)(
	'chat memory under the AI Agent, turns on different workers',
	() => {
		/** Turns at most, until two workers ran one; past five, the oldest leave the default window. */
		const TURNS = 8;
		const WINDOW_MESSAGES = 10;
		const { model, dana } = useAnswering('4915198765522', {});

		/**
		 * The worker whose log names the execution: the stack's own, or one that queueScale started
		 * in place of a stopped one (its log sits beside theirs), whichever file ran first.
		 */
		function workerOf(executionId: string): string | undefined {
			const folders = new Set((e2e().workerLogs ?? []).map((log) => dirname(log)));
			const logs = [...folders].flatMap((folder) =>
				readdirSync(folder)
					.filter((name) => /^n8n-worker-.*\.log$/.test(name))
					.map((name) => join(folder, name)),
			);
			return logs.find((log) =>
				readFileSync(log, 'utf8').includes(`Worker started execution ${executionId} (job`),
			);
		}

		it('each turn remembers the earlier ones (within the window), whichever worker ran it', async () => {
			const workers = new Set<string>();
			const said: string[] = [];
			for (let turn = 0; turn < TURNS && workers.size < 2; turn++) {
				const text = `mem-q turn ${turn}`;
				await dana.say(text);
				const [latest] = await dana.finishedRuns(turn + 1);
				expect(latest.status).toBe('success');
				const worker = await waitFor('the worker that ran it', async () => workerOf(latest.id));
				workers.add(worker);
				expect(turnRequest(model(), text).slice(1)).toEqual([
					...said
						.flatMap((earlier) => [
							{ role: 'user', text: earlier },
							{ role: 'assistant', text: replyTo(earlier) },
						])
						.slice(-WINDOW_MESSAGES),
					{ role: 'user', text },
				]);
				said.push(text);
			}
			expect(workers.size).toBe(2);
		}, 400_000);
	},
);

describe.runIf(mode === 'regular' && needsSdk)(
	'chat memory on n8n 1.x',
	{ tags: ['every-line'] },
	() => {
		const SENDER = '4915198765533';
		const own = ownN8n('memory-1x', outsideProject(), ONLY_N8NS_SDK);
		let model: ScriptedModel;
		let workflowId = '';
		const dana = chat(
			SENDER,
			() => own.api!,
			() => workflowId,
		);

		beforeAll(async () => {
			await sandboxControl('POST', '/clock', { speed: 1 });
			await own.start();
			({ model, workflowId } = await answering(own.api!, {}));
		}, 240_000);

		afterAll(async () => {
			await own.api?.deactivateWorkflow(workflowId).catch(() => undefined);
			await own.n8n?.stop();
			await model?.stop();
		});

		it('loads with the package and, when the Agent runs, says it needs n8n 2.x; nothing is sent', async () => {
			await dana.say('mem-1x: hello?');
			const [run] = await dana.finishedRuns(1);
			expect(run.status).toBe('error');
			// n8n 1.x heads the run's error "Error in sub-node Chat Memory"; the node's own words are in it.
			const execution = await own.api!.getExecution(run.id);
			expect(executionError(execution)).toContain('Chat Memory');
			expect(JSON.stringify(execution.data)).toContain('This memory needs n8n 2.x');
			expect(model.requests).toEqual([]);
			const { sends } = await sandboxControl<{ sends: Array<{ to: string }> }>('GET', '/sends');
			expect(sends.filter((send) => send.to === SENDER)).toEqual([]);
		});
	},
);
