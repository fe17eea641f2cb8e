import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DEMO, type SandboxHandle } from '../../sandbox';
import type { N8nWebhookHost } from '../../support/n8nWebhook';
import { activeMessageTrigger, settledAfter, useStoppedClock } from './fixtures';

/*
 * Review 12 (helper-70), what holds: Human Takeover with grouping off after T12-1/T12-2. An
 * ungrouped turn is judged at its own message (hold/turn.ts ungroupedTurn), never through
 * burstPauseAt: a command the account typed right after it, which the turn's read already holds
 * (the read comes after it here), pauses nothing for it, as for a read made before the command.
 */

let sandbox: SandboxHandle;
let trigger: N8nWebhookHost;
useStoppedClock(
	(started) => void (sandbox = started),
	() => trigger,
);

function write(text: string, afterMs: number, fromMe = false) {
	sandbox.clock.advance(afterMs);
	const result = sandbox.inject.injectMessage({ from: DEMO.alice, text, fromMe });
	expect(result.saved).toBe(true);
}

const output = (index: number) =>
	trigger.executions
		.flatMap((execution) => execution.outputs[index] ?? [])
		.map((item) => item.json);

describe('review 12: Human Takeover with grouping off (holds)', () => {
	it('a "/bot off" typed a second after an ungrouped message, in its read, leaves that message to the bot', async () => {
		trigger = await activeMessageTrigger(sandbox, { humanTakeover: true });
		write('where is my order?', 1000);
		// Written before the delivery's read: the read shows it.
		write('/bot off', 1000, true);
		await settledAfter(sandbox, trigger, 1);
		const readAt = sandbox.calls().find((call) => call.tool === 'get_messages')?.at;
		const commandAt = sandbox.clock.now();
		write('still there?', 1000);
		await settledAfter(sandbox, trigger, 2);

		expect(output(0).map((json) => json.text)).toEqual(['where is my order?']);
		expect(output(1).map((json) => json.text)).toEqual(['still there?']);
		expect((output(0)[0].takeover as IDataObject).paused).toBe(false);
		expect(Date.parse(readAt ?? '')).toBeGreaterThanOrEqual(commandAt);
	});
});
