import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { MessagingAutomationTrigger } from '../../../../nodes/MessagingAutomationTrigger/MessagingAutomationTrigger.node';
import { withCarrier } from '../../../../nodes/MessagingAutomationTrigger/run/runClaim';
import { DEMO, type SandboxHandle } from '../../../sandbox';
import { N8nEngine } from '../../../support/n8nEngine';
import type { N8nWebhookHost } from '../../../support/n8nWebhook';
import {
	activeMessageTrigger,
	messageDeliveries,
	restartN8n,
	TRIGGER,
	triggerWorkflow,
	useStoppedClock,
	waitFor,
} from '../fixtures';

/*
 * n8n answers a run's delivery once it has recorded the run. Stopped between the two, n8n leaves
 * the delivery to the service's retry, and the copy reaches the trigger as if new (the handler's
 * static data was not saved either). The trigger's first step in the run finds the claim the
 * recorded run left in n8n's processed-data store and passes nothing on.
 */

let sandbox: SandboxHandle;
let trigger: N8nWebhookHost;

useStoppedClock(
	(started) => void (sandbox = started),
	() => trigger,
);

const people = (count: number) =>
	Array.from({ length: count }, (_, index) => ({
		phone: `4917000${String(index).padStart(5, '0')}`,
		name: `Person ${index}`,
	}));

function write(text: string, from: { phone: string; name?: string } = DEMO.alice) {
	expect(sandbox.inject.injectMessage({ from, text }).saved).toBe(true);
}

/** Items each run passed on, in run order: a copy of a recorded run passes none. */
const passedOn = () =>
	trigger.executions.map((execution) =>
		execution.outputs.flat().map((item) => item.json.text as string),
	);

/** n8n restarted, and every delivery it dropped unanswered came again (30 s on, ±20 %). */
async function retriedAfterStop(runs: number) {
	await waitFor(() => trigger.executions.length >= runs / 2, 20_000);
	await trigger.settled();
	// The service sees each dropped connection before the clock moves on to its retries.
	await waitFor(
		() => messageDeliveries(sandbox, trigger).filter((attempt) => attempt.error).length >= runs / 2,
		20_000,
	);
	await restartN8n(trigger);
	sandbox.clock.advance(40_000);
	await waitFor(() => trigger.executions.length >= runs, 20_000);
	await trigger.settled();
}

async function activeTrigger(parameters: INodeParameters) {
	trigger = await activeMessageTrigger(sandbox, parameters);
	await waitFor(() => trigger.requests.length >= 1, 10_000);
}

describe('a run n8n recorded but stopped before answering its delivery', () => {
	it('runs once: the retried copy passes nothing on', async () => {
		await activeTrigger({});
		trigger.stopAfterRecording();
		write('where is my order?');
		await retriedAfterStop(2);

		expect(passedOn()).toEqual([['where is my order?'], []]);
		const attempts = await waitFor(() => {
			const all = messageDeliveries(sandbox, trigger);
			return all.length >= 2 && all.every((attempt) => attempt.completedAt) && all;
		});
		expect(attempts.map((attempt) => attempt.statusCode ?? 'dropped')).toEqual(['dropped', 200]);
	});

	it('runs a grouped burst once when the read after the retry settles it again', async () => {
		await activeTrigger({
			groupQuickMessages: true,
			quietWindowSeconds: 0.4,
			longestWaitSeconds: 30,
		});
		trigger.stopAfterRecording();
		write('hello');
		sandbox.clock.advance(200);
		write('one more thing');
		sandbox.clock.advance(1000);
		await retriedAfterStop(2);

		expect(passedOn()).toEqual([['hello\none more thing'], []]);
	});

	it('runs thirty people once each when all thirty were recorded at once and retried', async () => {
		await activeTrigger({});
		trigger.stopAfterRecording(30);
		for (const person of people(30)) write(`question from ${person.name}`, person);
		await retriedAfterStop(60);

		const runs = passedOn();
		expect(runs.filter((items) => items.length === 1)).toHaveLength(30);
		expect(new Set(runs.flat()).size).toBe(30);
		expect(runs.filter((items) => items.length === 0)).toHaveLength(30);
	});

	it('runs the copy too when Deduplicate Events is off: every delivery is meant to run', async () => {
		await activeTrigger({ options: { deduplicate: false } });
		trigger.stopAfterRecording();
		write('run me each time');
		await retriedAfterStop(2);

		expect(passedOn()).toEqual([['run me each time'], ['run me each time']]);
	});
});

describe("the claim step, in n8n's engine", () => {
	const engine = () =>
		new N8nEngine({
			nodeTypes: { messagingAutomationTrigger: new MessagingAutomationTrigger() },
			credentialTypes: [],
		});
	const runOf = (eventId: string) => ({
		node: TRIGGER,
		items: [{ json: { event_id: eventId, text: eventId } }],
	});

	it('keeps every claim when many runs start at once (n8n rewrites one record per trigger)', async () => {
		const n8n = engine();
		const ids = Array.from({ length: 40 }, (_, index) => `evt_${index}`);
		const start = async () =>
			await Promise.all(
				ids.map(async (id) => await n8n.run(triggerWorkflow(), runOf(id), 'webhook')),
			);
		const first = await start();
		const again = await start();
		expect(first.map((run) => run.output(TRIGGER).length)).toEqual(ids.map(() => 1));
		expect(again.map((run) => run.output(TRIGGER).length)).toEqual(ids.map(() => 0));
	});

	it('knows a grouped run by its messages, not by the event that closed it', async () => {
		const n8n = engine();
		const burst = (eventId: string, messageIds: string[]) => ({
			node: TRIGGER,
			items: [
				{
					json: {
						event_id: eventId,
						text: messageIds.join('\n'),
						message_ids: messageIds,
						messages: messageIds.map((id) => ({ id, text: id })),
						burst: { message_count: messageIds.length, closed_by: 'quiet_window' },
					},
				},
			],
		});
		const passed = async (eventId: string, messageIds: string[]) =>
			(await n8n.run(triggerWorkflow(), burst(eventId, messageIds), 'webhook'))
				.output(TRIGGER)
				.map((item) => item.json);
		// The burst's first and last events each closed it once (delivered late, together).
		expect(await passed('evt_i1', ['i1', 'i2', 'i3'])).toHaveLength(1);
		expect(await passed('evt_i3', ['i1', 'i2', 'i3'])).toEqual([]);
		// Read again with a message the service saved late: only that message runs, saying what ran before.
		const [rest] = await passed('evt_i2', ['i1', 'i2', 'i3', 'i4']);
		expect(rest).toMatchObject({
			text: 'i4',
			message_id: 'i4',
			message_ids: ['i4'],
			burst: { message_count: 1, closed_by: 'quiet_window', ran_before: ['i1', 'i2', 'i3'] },
		});
	});

	it('narrows a run to its fresh messages before any file is downloaded (runAttachments.ts downloads what it passes on), and its event_id is its own', async () => {
		const n8n = engine();
		const burst = (eventId: string, ids: string[]) => ({
			node: TRIGGER,
			items: [
				{
					json: {
						event_id: eventId,
						text: ids.join('\n'),
						message_ids: ids,
						messages: ids.map((id) => ({ id, text: id })),
						burst: { message_count: ids.length, closed_by: 'quiet_window' },
					},
				},
			],
		});
		// The burst ran; i2, saved late, runs alone after.
		await n8n.run(triggerWorkflow(), burst('evt_i3', ['i1', 'i3']), 'webhook');
		const again = await n8n.run(triggerWorkflow(), burst('evt_i2', ['i1', 'i2', 'i3']), 'webhook');
		const [item] = again.output(TRIGGER);
		expect(item.json.message_ids).toEqual(['i2']);
		expect((item.json.messages as Array<{ id: string }>).map((message) => message.id)).toEqual([
			'i2',
		]);
		// A reply keyed on it is not the earlier run's reply.
		expect(item.json.event_id).toBe('evt_i2:i2');
	});

	it('passes a run for Paused Chats alone on in the legacy execution order (v0) too', async () => {
		const paused = { json: { event_id: 'evt_paused', text: 'talk to a person' } };
		const run = await engine().run(
			{
				...triggerWorkflow({ events: ['message.received'], humanTakeover: true }),
				executionOrder: 'v0',
			},
			{ node: TRIGGER, items: [], main: withCarrier([[], [paused]]) },
			'webhook',
		);
		expect(run.output(TRIGGER, 0)).toEqual([]);
		expect(run.output(TRIGGER, 1).map((item) => item.json.text)).toEqual(['talk to a person']);
	});

	// n8n's Retry starts a run over (one a stop cut short); a test run is asked for by a person.
	it.each(['retry', 'manual'] as const)('passes the run on again in %s mode', async (mode) => {
		const n8n = engine();
		const first = mode === 'retry' ? 'webhook' : mode;
		const ran = [
			await n8n.run(triggerWorkflow(), runOf(`evt_${mode}`), first),
			await n8n.run(triggerWorkflow(), runOf(`evt_${mode}`), mode),
		];
		expect(ran.map((run) => run.output(TRIGGER).length)).toEqual([1, 1]);
	});
});
