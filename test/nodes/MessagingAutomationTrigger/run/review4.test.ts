import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DEMO, type SandboxHandle } from '../../../sandbox';
import type { N8nWebhookHost } from '../../../support/n8nWebhook';
import { activeMessageTrigger, useSandbox, waitFor } from '../fixtures';

/*
 * Review 4 (branch review-4): run claims are kept per workflow since the Catch-Up node shares them
 * (runClaim.ts CLAIM_SCOPE), and an ungrouped run claims its message too since issue 45d. Two
 * triggers of one account in one workflow (each its own endpoint, each sent every event) then
 * claim the same `message|<id>` keys.
 */

let sandbox: SandboxHandle;
useSandbox((started) => void (sandbox = started));

/** Every message text a trigger's runs passed on, grouped or not. */
const ranTexts = (trigger: N8nWebhookHost) =>
	trigger.executions.flatMap((execution) =>
		execution.items.flatMap((item) => {
			const messages = item.json.messages as IDataObject[] | undefined;
			return messages ? messages.map((message) => message.text) : [item.json.text];
		}),
	);

async function both(first: INodeParameters, second: INodeParameters) {
	const log = await activeMessageTrigger(sandbox, first);
	// Two nodes of one workflow: the same workflow id, each its own node id.
	const bot = await activeMessageTrigger(sandbox, second, sandbox.keys.owner, 'trigger-2');
	try {
		sandbox.inject.injectMessage({ from: DEMO.alice, text: 'where is my order?' });
		await waitFor(() => log.executions.length >= 1 && bot.executions.length >= 1, 20_000);
		await log.settled();
		await bot.settled();
		return { log: ranTexts(log), bot: ranTexts(bot) };
	} finally {
		for (const trigger of [log, bot]) {
			await trigger.deactivate('production');
			await trigger.stop();
		}
	}
}

const grouped = { groupQuickMessages: true, quietWindowSeconds: 0.4, longestWaitSeconds: 5 };

describe('review 4: two triggers of one account in one workflow', () => {
	it('control: the grouped trigger alone runs the message', async () => {
		const bot = await activeMessageTrigger(sandbox, grouped);
		try {
			sandbox.inject.injectMessage({ from: DEMO.alice, text: 'alone' });
			await waitFor(() => bot.executions.length >= 1, 20_000);
			await bot.settled();
			expect(ranTexts(bot)).toEqual(['alone']);
		} finally {
			await bot.deactivate('production');
			await bot.stop();
		}
	});

	// Holds since issue-45e keys each claim by the trigger node it runs for (R45b-7's fix).
	it("R4-5 (a trigger silently runs nothing; R45b-7 widened by 45d): an ungrouped trigger (say, one that logs every message to a sheet) beside a grouped one (the bot) in the same workflow: the ungrouped run claims message|<id> (45d) in the workflow's one record, so the bot's grouped run of the same message passes nothing on ('handed to n8n again after it was recorded'), and the bot never answers. Holds before the 45d merge (4426c69^1)", async () => {
		const ran = await both({}, grouped);
		console.log(`R4-5: ${JSON.stringify(ran)}`);
		expect(ran).toEqual({ log: ['where is my order?'], bot: ['where is my order?'] });
	});
});
