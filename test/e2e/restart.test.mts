import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startN8n } from '../support/n8nProcess.mjs';
import { nodeOutput, type N8nRestApi } from '../support/n8nRestApi.mjs';
import {
	e2e,
	n8nApi,
	sandboxControl,
	sandboxCredential,
	unique,
	waitFor,
} from './support/context.mjs';
import { startLoadBalancer, type LoadBalancer } from './support/loadBalancer.mjs';
import { nothingQueued, restartableN8n, type RestartableN8n } from './support/restartable.mjs';
import { triggerWorkflow } from './support/workflows.mjs';

/*
 * Group Quick Messages through a stop: ten people each send three quick messages, and one second
 * after the last, while every burst is inside its quiet window, n8n (regular mode) or one of the
 * two webhook processes (queue mode) is stopped: SIGTERM as a deploy does, SIGKILL as a crash
 * does. The sandbox delivers the events itself and retries what got no answer, as the service
 * does (first retry 30 s ±20 % after the failure). Every burst must run exactly once, whole.
 */

const { mode } = e2e();
const PEOPLE = 10;
const QUIET_S = 5;

type RunJson = { messages?: Array<{ text: string; from?: { phone?: string } }> };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Three quick messages from each of PEOPLE people, interleaved; resolves after the last is saved. */
async function burstsFrom(tag: string): Promise<void> {
	const phones = Array.from(
		{ length: PEOPLE },
		(_, index) => `49151${tag}${String(index).padStart(4, '0')}`,
	);
	for (const round of [1, 2, 3]) {
		for (const phone of phones) {
			const { saved } = await sandboxControl('POST', '/inject/message', {
				from: { phone, name: `Person ${phone.slice(-2)}` },
				text: `${tag} message ${round}`,
			});
			expect(saved).toBe(true);
			await pause(100);
		}
	}
}

/** Every burst tagged `tag` ran exactly once, whole and in written order, within 90 s of `backAt`. */
async function expectEachBurstOnce(
	api: () => N8nRestApi,
	workflowId: string,
	tag: string,
	backAt: number,
) {
	const ours = async () => {
		const executions = await api().listExecutions(workflowId);
		const outputs = await Promise.all(
			executions.map(
				async (execution) =>
					nodeOutput(await api().getExecution(execution.id), 'Trigger')?.[0] as RunJson,
			),
		);
		return outputs.filter((json) => json?.messages?.[0]?.text.startsWith(`${tag} `));
	};
	await waitFor(
		`${PEOPLE} runs of the ${tag} bursts`,
		async () => ((await ours()).length >= PEOPLE ? true : undefined),
		150_000,
	);
	const seconds = (Date.now() - backAt) / 1000;
	// Whatever the service still retries has had its chance: nothing queued, then one more quiet window.
	await nothingQueued(`${tag} message`, 150_000);
	await pause((QUIET_S + 2) * 1000);
	// Counted, not timed (a loaded machine stretches every second): no delivery of these bursts waited
	// for the service's third retry (10 min). One delivery of a burst that had run took a third attempt
	// (its second not answered 2xx) in one CI run after a webhook process's SIGKILL: issue 43's notes.
	const attempts = await attemptsPerDelivery(`${tag} message`);
	console.log(
		`[e2e restart ${mode}] ${tag}: the ${PEOPLE} bursts ran within ${seconds.toFixed(1)} s; attempts per delivery ${JSON.stringify(attempts)}`,
	);
	expect(Math.max(...attempts)).toBeLessThanOrEqual(3);
	const all = await ours();
	expect(all).toHaveLength(PEOPLE);
	expect(new Set(all.map((json) => json.messages?.[0]?.from?.phone)).size).toBe(PEOPLE);
	for (const json of all)
		expect(json.messages?.map((message) => message.text)).toEqual(
			[1, 2, 3].map((round) => `${tag} message ${round}`),
		);
}

/** How many attempts each delivery of a message holding `marker` took, sorted. */
async function attemptsPerDelivery(marker: string): Promise<number[]> {
	const { deliveries } = await sandboxControl<{
		deliveries: Array<{ payload?: string | null; attemptLog: unknown[] }>;
	}>('GET', '/webhooks');
	return deliveries
		.filter((delivery) => delivery.payload?.includes(marker))
		.map((delivery) => delivery.attemptLog.length)
		.sort((a, b) => a - b);
}

const grouping = {
	events: ['message.received'],
	groupQuickMessages: true,
	quietWindowSeconds: QUIET_S,
	longestWaitSeconds: 30,
};

describe.runIf(mode === 'regular')('Group Quick Messages through a stop of n8n', () => {
	let n8n: RestartableN8n;

	beforeAll(async () => {
		await sandboxControl('POST', '/clock', { speed: 1 });
		n8n = await restartableN8n('restart', grouping);
	}, 240_000);

	afterAll(async () => await n8n?.close());

	const stopInsideTheQuietWindow = (tag: string, signal: 'SIGTERM' | 'SIGKILL') => async () => {
		await burstsFrom(tag);
		await pause(1000);
		await n8n.stop(signal);
		const backAt = await n8n.start();
		await expectEachBurstOnce(() => n8n.api(), n8n.workflowId, tag, backAt);
	};
	it(
		'runs every burst exactly once when n8n gets SIGTERM inside the quiet window',
		{ timeout: 400_000 },
		stopInsideTheQuietWindow('11', 'SIGTERM'),
	);
	// A crash is the harder stop: the one case that runs on every n8n line.
	it(
		'runs every burst exactly once when n8n gets SIGKILL inside the quiet window',
		{ tags: ['every-line'], timeout: 400_000 },
		stopInsideTheQuietWindow('22', 'SIGKILL'),
	);
});

describe.runIf(mode === 'queue')(
	'Group Quick Messages through a stop of one webhook process',
	() => {
		const {
			webhookBaseUrls,
			webhookPids = [],
			queueEnv = {},
			userFolder,
			keys,
			sandboxUrl,
		} = e2e();
		let api: N8nRestApi;
		let balancer: LoadBalancer;
		let workflowId: string;
		let stoppedPid = webhookPids[0];

		beforeAll(async () => {
			await sandboxControl('POST', '/clock', { speed: 1 });
			api = await n8nApi();
			balancer = await startLoadBalancer(webhookBaseUrls);
			const webhookId = randomUUID();
			// The service delivers to the balancer, which deals the deliveries to both webhook processes.
			const created = await fetch(`${sandboxUrl}/api/v1/webhooks`, {
				method: 'POST',
				headers: { authorization: `Bearer ${keys.owner}`, 'content-type': 'application/json' },
				body: JSON.stringify({
					url: `${balancer.url}/webhook/${webhookId}/webhook`,
					event_types: ['message.received'],
				}),
			});
			const endpoint = (await created.json()) as { secret: string };
			const credential = await sandboxCredential(api);
			const workflow = await api.createWorkflow(
				triggerWorkflow(unique('e2e restart queue'), credential, webhookId, {
					...grouping,
					registration: 'dashboard',
					signingSecret: endpoint.secret,
				}),
			);
			workflowId = workflow.id;
			await api.activateWorkflow(workflowId);
		}, 240_000);

		afterAll(async () => {
			await api?.deactivateWorkflow(workflowId).catch(() => undefined);
			await balancer?.stop();
		});

		it.each([
			{ tag: '33', signal: 'SIGTERM' as const },
			{ tag: '44', signal: 'SIGKILL' as const },
		])(
			'runs every burst exactly once when a webhook process holding parts of them gets $signal',
			async ({ tag, signal }) => {
				await burstsFrom(tag);
				await pause(1000);
				const stoppedAt = Date.now();
				process.kill(-stoppedPid, signal);
				try {
					await waitFor('the webhook process to exit', async () => {
						try {
							process.kill(-stoppedPid, 0);
							return undefined;
						} catch {
							return true;
						}
					});
					await expectEachBurstOnce(() => api, workflowId, tag, stoppedAt);
					console.log(
						`[e2e restart queue] deliveries per webhook process: ${JSON.stringify(balancer.forwarded)}`,
					);
				} finally {
					// Back on its port, as an orchestrator restarts it, for the test files that follow, also
					// when this case failed: a missing webhook process would fail every later file instead.
					const replacement = await startN8n({
						userFolder,
						command: 'webhook',
						port: Number(new URL(webhookBaseUrls[0]).port),
						extraEnv: queueEnv,
						logName: `n8n-webhook-replacement-${signal}.log`,
						outlive: true,
					});
					stoppedPid = replacement.pid;
				}
			},
			400_000,
		);
	},
);
