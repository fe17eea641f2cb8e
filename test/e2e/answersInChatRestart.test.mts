import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_N8N_VERSION } from '../support/n8nInstall.mjs';
import { nodeOutput } from '../support/n8nRestApi.mjs';
import {
	answered,
	ANSWERS_TRIGGER,
	askInChat,
	delivered,
	type Delivery,
	newPhone,
	triggerRuns,
	writeInChat,
} from './support/chatAnswers.mjs';
import { e2e, sandboxControl, waitFor } from './support/context.mjs';
import { restartableN8n, type RestartableN8n } from './support/restartable.mjs';

/*
 * Answer in Chat through a restart: a Send and Wait asks and waits, n8n is stopped (SIGTERM as a
 * deploy does, SIGKILL as a crash does) and started again on the same data, and only then does the
 * person write "1". Nothing about the question lived in the stopped process: the restarted trigger
 * finds it in the saved messages and the execution, waiting in n8n's database, resumes once.
 */

const { mode, n8nVersion } = e2e();
// An n8n of its own, stopped twice: on the default n8n only (answersInChat.test.mts covers every version).
const runsHere = mode === 'regular' && n8nVersion === DEFAULT_N8N_VERSION;

/** The sandbox's clock minus this process's, to read its delivery times on this machine's clock. */
async function sandboxOffset(): Promise<number> {
	const { now } = await sandboxControl<{ now: string }>('GET', '/clock');
	return Date.parse(now) - Date.now();
}

describe.runIf(runsHere)('Answer in Chat through a restart of n8n', () => {
	let n8n: RestartableN8n;

	beforeAll(async () => {
		await sandboxControl('POST', '/clock', { speed: 1 });
		n8n = await restartableN8n('answers-restart', ANSWERS_TRIGGER);
	}, 300_000);

	afterAll(async () => await n8n?.close());

	it.each(['SIGTERM', 'SIGKILL'] as const)(
		'"1" written after a %s resumes the waiting execution once with approved true; it starts no run',
		async (signal) => {
			const phone = newPhone();
			const { executionId } = await askInChat(n8n.api(), n8n.credential, phone);
			const stoppedAt = Date.now();
			await n8n.stop(signal);
			const backAt = await n8n.start();

			const one = await writeInChat(phone, '1');
			const { execution, output } = await answered(n8n.api(), executionId);
			expect(output.data).toMatchObject({
				approved: true,
				answeredIn: 'chat',
				answerMessageId: one.id,
			});
			const delivery = await delivered(one.id);

			// A message that is no answer runs the bot: the trigger is live, and "1" was kept from it.
			const thanks = await writeInChat(phone, 'thanks');
			const thanksAt = Date.now();
			await waitFor('the bot run for "thanks"', async () =>
				(await triggerRuns(n8n.api(), n8n.workflowId, thanks.id)) === 1 ? true : undefined,
			);
			const control = { ms: Date.now() - thanksAt, delivery: await delivered(thanks.id) };
			expect(await triggerRuns(n8n.api(), n8n.workflowId, one.id)).toBe(0);
			const after = await n8n.api().getExecution(executionId);
			expect(after.status).toBe('success');
			expect(nodeOutput(after, 'Action')).toHaveLength(1);
			expect(await n8n.api().listAllExecutions(execution.workflowId as string)).toHaveLength(1);

			const offset = await sandboxOffset();
			const attempt = delivery.attemptLog.at(-1) as Delivery['attemptLog'][number];
			const finishedAt = Date.parse((execution as { stoppedAt?: string }).stoppedAt ?? '');
			console.log(
				`[e2e answers restart ${signal}] n8n back ${((backAt - stoppedAt) / 1000).toFixed(1)} s after the stop began; the answer's delivery (attempt ${delivery.attemptLog.length}) arrived and the execution finished ${finishedAt - (attempt.at - offset)} ms later; "thanks" ran the bot ${control.ms} ms after it was written (delivery attempt ${control.delivery.attemptLog.length})`,
			);
		},
		400_000,
	);
});
