import { setTimeout as delay } from 'node:timers/promises';

import type { RecordedCall } from '../sandbox';
import type { SandboxProcess } from './sandboxProcess';
import type { RowResult } from './table';
import { activeBenchTrigger } from './triggerHost';

/*
 * Row 8: what the trigger reads from the service, per minute of the sandbox's clock (issue 45: a
 * bounded cost, in numbers). The trigger as a reply bot sets it (Group Quick Messages with history,
 * Pass Answers to Send and Wait, Catch Up Missed Messages on), in n8n-core's webhook machinery, the
 * sandbox delivering the events itself. A reply wave as the e2e suite's: 150 people each write 4
 * quick messages, their bursts spread over one minute (600 messages a minute), with the key's limit
 * of 600 reads a minute enforced; then ten idle minutes (no traffic). Counted from the sandbox's
 * record of calls: every call the trigger's key made, the busiest 60 s window, and the 429s.
 */

const PEOPLE = 150;
const MESSAGES = 4;
const GAP_MS = 800;
const STAGGER_MS = 400;
const IDLE_MINUTES = 10;
const READ_LIMIT = 600;

/** The most calls in any 60 s of the sandbox's clock (the limit's sliding window). */
function busiestMinute(calls: readonly RecordedCall[]): number {
	const times = calls.map((call) => Date.parse(call.at)).sort((a, b) => a - b);
	let most = 0;
	for (let end = 0, start = 0; end < times.length; end++) {
		while (times[end] - times[start] >= 60_000) start++;
		most = Math.max(most, end - start + 1);
	}
	return most;
}

/** Every message event delivered (none queued for a retry), or the time is up. */
async function deliveriesSettled(sandbox: SandboxProcess): Promise<void> {
	for (let waited = 0; waited < 180_000; waited += 500) {
		const { deliveries } = await sandbox.control<{
			deliveries: Array<{ status: string; eventType: string }>;
		}>('GET', '/webhooks');
		if (!deliveries.some((d) => d.eventType === 'message.received' && d.status === 'queued'))
			return;
		await delay(500);
	}
	throw new Error('deliveries still queued after 180 s');
}

/** The wave: each person's quick messages, people starting 0.4 s apart, on the wall clock. */
async function replyWave(sandbox: SandboxProcess): Promise<void> {
	const plan = Array.from({ length: PEOPLE }, (_, person) =>
		Array.from({ length: MESSAGES }, (_, index) => ({
			at: person * STAGGER_MS + index * GAP_MS,
			from: { phone: `4477008${String(person).padStart(5, '0')}`, name: `Person ${person}` },
			text: `wave ${index + 1}`,
		})),
	)
		.flat()
		.sort((a, b) => a.at - b.at);
	const started = Date.now();
	for (const { at, from, text } of plan) {
		const wait = started + at - Date.now();
		if (wait > 0) await delay(wait);
		await sandbox.control('POST', '/inject/message', { from, text });
	}
}

export async function triggerReadsRow(sandbox: SandboxProcess): Promise<RowResult> {
	const host = await activeBenchTrigger(sandbox, {
		events: ['message.received'],
		groupQuickMessages: true,
		quietWindowSeconds: 5,
		longestWaitSeconds: 30,
		includeHistory: true,
		historyMessages: 10,
		answersToSendAndWait: true,
	});
	const since = (await sandbox.calls()).length;
	try {
		await replyWave(sandbox);
		await deliveriesSettled(sandbox);
		await host.settled();
		const wave = (await sandbox.calls()).slice(since);
		const runs = host.executions.filter((execution) => execution.items.length > 0).length;

		const before = (await sandbox.calls()).length;
		for (let minute = 0; minute < IDLE_MINUTES; minute++) {
			await sandbox.control('POST', '/clock', { advanceMs: 60_000 });
			await delay(100);
		}
		await host.settled();
		const idle = (await sandbox.calls()).length - before;

		const peak = busiestMinute(wave);
		const refused = wave.filter((call) => call.status === 429).length;
		const writes = wave.filter((call) => !/^get_|^search_|^webhooks GET/.test(call.tool)).length;
		const idlePerMinute = idle / IDLE_MINUTES;
		return {
			id: '8',
			title: `Trigger's reads per sandbox minute: idle, and beside a reply wave (${PEOPLE} people × ${MESSAGES} quick messages in one minute)`,
			figure: `idle ${idlePerMinute.toFixed(1)} reads/min (${idle} in ${IDLE_MINUTES} min); wave: busiest minute ${peak} reads (${(peak / READ_LIMIT).toFixed(2)}× the limit), ${wave.length} in all, ${(wave.length / PEOPLE).toFixed(2)} per burst, ${runs} runs for ${PEOPLE} bursts, ${refused} × 429`,
			anchor: `the key's limit: ${READ_LIMIT} reads per minute`,
			target: `busiest minute ≤ ${READ_LIMIT} reads, 0 × 429, idle stated, no writes`,
			met: peak <= READ_LIMIT && refused === 0 && writes === 0,
			notes: [
				`Row 8: counted from the sandbox's record of calls by the trigger's key (reads: get_messages and webhook management GETs), on the sandbox's clock; the wave's messages are written in real time and delivered by the sandbox, which enforces the read limit. A caught-up message is carried by the read its person's next burst makes (no read of its own); the idle figure counts no polling node.`,
			],
		};
	} finally {
		await host.stop();
	}
}
