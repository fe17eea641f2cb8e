import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DEMO, type SandboxHandle } from '../../sandbox';
import type { N8nWebhookHost } from '../../support/n8nWebhook';
import { activeMessageTrigger, settledAfter, useStoppedClock } from './fixtures';

/*
 * Human Takeover through n8n's webhook machinery, against the sandbox with its clock held still and
 * moved by hand: the pause is worked out from the saved messages' own timestamps, so each test
 * says exactly when every message was written. Own messages (the pause and resume commands) go
 * out through send_message, as a workflow or the phone would put them into the conversation.
 */

const QUIET_S = 0.4;
const takeover = (extra: INodeParameters = {}): INodeParameters => ({
	humanTakeover: true,
	handoverWords: 'human, talk to a person',
	...extra,
});
const grouping = { groupQuickMessages: true, quietWindowSeconds: QUIET_S, longestWaitSeconds: 10 };

let sandbox: SandboxHandle;
let trigger: N8nWebhookHost;
let ownMessages = 0;

useStoppedClock(
	(started) => void (sandbox = started),
	() => trigger,
);
const activeTrigger = async (parameters: INodeParameters, apiKey?: string) =>
	(trigger = await activeMessageTrigger(sandbox, parameters, apiKey));

type From = { phone: string; name?: string };

/** A person's message written `afterMs` after the previous message (sandbox time). */
function say(text: string, { from = DEMO.alice as From, afterMs = 1000, group = '' } = {}) {
	sandbox.clock.advance(afterMs);
	const result = sandbox.inject.injectMessage({ from, text, ...(group ? { group } : {}) });
	expect(result.saved).toBe(true);
	return result.message;
}

/** The account's own message in a chat, sent through the API as a workflow or the phone would. */
async function own(text: string, target: IDataObject = { phoneNumber: DEMO.alice.phone }) {
	sandbox.clock.advance(1000);
	const sent = await fetch(`${sandbox.url}/api/v1/tools/send_message`, {
		method: 'POST',
		headers: {
			authorization: `Bearer ${sandbox.keys.owner}`,
			'content-type': 'application/json',
			'idempotency-key': `own-message-${String(++ownMessages).padStart(4, '0')}`,
		},
		body: JSON.stringify({ channel: 'qr', text, ...target }),
	});
	expect(sent.status).toBe(200);
}

const settled = async (count: number) => await settledAfter(sandbox, trigger, count);

const output = (index: number) =>
	trigger.executions
		.flatMap((execution) => execution.outputs[index] ?? [])
		.map((item) => item.json);
const bot = () => output(0).map((json) => json.text);
const people = () => output(1).map((json) => json.text);
const reads = () => sandbox.calls().filter((call) => call.tool === 'get_messages');

describe('Human Takeover: commands', () => {
	it('sends a paused conversation to the people, and the bot gets it back after /bot on', async () => {
		await activeTrigger(takeover());
		say('before');
		await own('  /BOT off ');
		say('while paused');
		say('from bob meanwhile', { from: DEMO.bob });
		say('still paused');
		await own('/bot on');
		say('after');
		await settled(5);

		expect(trigger.executions.every((execution) => execution.outputs.length === 2)).toBe(true);
		expect(bot().sort()).toEqual(['after', 'before', 'from bob meanwhile']);
		expect(people().sort()).toEqual(['still paused', 'while paused']);
		const paused = output(1).find((json) => json.text === 'while paused') as IDataObject;
		const pause = paused.takeover as IDataObject;
		expect(pause).toMatchObject({ paused: true, by: 'command', text: '  /BOT off ' });
		expect(Date.parse(pause.until as string) - Date.parse(pause.since as string)).toBe(
			12 * 3_600_000,
		);
		expect(output(0).find((json) => json.text === 'after')?.takeover).toEqual({
			paused: false,
			by: null,
			since: null,
			until: null,
			message_id: null,
			text: null,
		});
		// One read per delivery, of the largest page, though grouping and history are off.
		expect(reads()).toHaveLength(5);
		expect(reads().every((call) => (call.input as IDataObject).limit === 100)).toBe(true);
	});

	it('pauses nothing for a text that only contains the command, or the person writing it', async () => {
		await activeTrigger(takeover());
		await own('please /bot off now');
		say('/bot off');
		say('next');
		await settled(2);
		expect(bot().sort()).toEqual(['/bot off', 'next']);
		expect(people()).toEqual([]);
	});

	it('ends a pause older than Resume After without a resume command', async () => {
		await activeTrigger(takeover({ resumeAfterHours: 0.5 }));
		// The command is written 31 minutes before now; the deliveries that follow are signed now.
		sandbox.clock.advance(-31 * 60_000);
		await own('/bot off');
		sandbox.clock.set(Date.now());
		say('half an hour later');
		await settled(1);
		expect(bot()).toEqual(['half an hour later']);
	});

	it('keeps a pause with Resume After 0 until the resume command', async () => {
		await activeTrigger(takeover({ resumeAfterHours: 0 }));
		sandbox.clock.advance(-48 * 3_600_000);
		await own('/bot off');
		sandbox.clock.set(Date.now());
		say('two days later');
		await settled(1);
		expect(people()).toEqual(['two days later']);
		expect((output(1)[0].takeover as IDataObject).until).toBeNull();
	});
});

describe('Human Takeover: hand-over words', () => {
	it('sends the hand-over message and the next ones to the people', async () => {
		await activeTrigger(takeover());
		say('where is my order');
		say('I want to talk to a HUMAN');
		say('hello?');
		await settled(3);
		expect(bot()).toEqual(['where is my order']);
		expect(people().sort()).toEqual(['I want to talk to a HUMAN', 'hello?']);
		const handover = output(1).find((json) => json.text === 'hello?') as IDataObject;
		expect(handover.takeover).toMatchObject({
			paused: true,
			by: 'handover',
			text: 'I want to talk to a HUMAN',
		});
	});

	it('pauses the whole group when one member asks for a person', async () => {
		await activeTrigger(takeover());
		const group = DEMO.adminGroup.jid;
		say('bob: human please', { from: DEMO.bob, group });
		say('alice: me too', { group });
		await own('/bot on', { conversationId: group });
		say('alice: thanks', { group });
		await settled(3);
		expect(people().sort()).toEqual(['alice: me too', 'bob: human please']);
		expect(bot()).toEqual(['alice: thanks']);
	});
});

describe('Human Takeover with Group Quick Messages and history', () => {
	/** A paused person's three quick messages and another person's one, through a trigger with `parameters`. */
	async function pausedBurst(parameters: INodeParameters) {
		await activeTrigger(parameters);
		await own('/bot off');
		for (const text of ['one', 'two', 'three']) say(text, { afterMs: 100 });
		say('bob is not paused', { from: DEMO.bob, afterMs: 100 });
		await settled(4);
		await trigger.stop();
		return reads().map((call) => (call.input as IDataObject).limit);
	}

	it("sends a paused person's quick messages as one run to the people, in written order, with no extra reads", async () => {
		const settings = { ...grouping, includeHistory: true, historyMessages: 3 };
		const readsWithout = await pausedBurst(settings);
		sandbox.reset();
		sandbox.clock.set(Date.now());
		const readsWith = await pausedBurst(takeover(settings));
		expect(trigger.executions).toHaveLength(2);
		expect(output(1)).toHaveLength(1);
		const run = output(1)[0];
		expect((run.messages as IDataObject[]).map((message) => message.text)).toEqual([
			'one',
			'two',
			'three',
		]);
		expect(run.takeover).toMatchObject({ paused: true, by: 'command' });
		expect((run.history as IDataObject[]).at(-1)).toMatchObject({
			role: 'account',
			text: '/bot off',
		});
		expect(bot()).toEqual(['bob is not paused']);
		// As many reads as grouping and history make without takeover, each of the largest page.
		expect(readsWith).toHaveLength(readsWithout.length);
		expect(readsWith.every((limit) => limit === 100)).toBe(true);
	});

	it('sends a whole burst to the people when a hand-over word comes in the middle of it', async () => {
		await activeTrigger(takeover(grouping));
		for (const text of ['hi', 'can I talk to a person', 'order 4411']) say(text, { afterMs: 100 });
		await settled(3);
		expect(trigger.executions).toHaveLength(1);
		expect(people()).toEqual(['hi\ncan I talk to a person\norder 4411']);
	});
});

describe('Human Takeover when the conversation cannot be read', () => {
	it('drops nothing: each message goes to the people, saying the pause could not be checked', async () => {
		await activeTrigger(takeover());
		// Unavailable for longer than the trigger waits it out.
		sandbox.faults.add({ tool: 'get_messages', kind: 'toolError503', times: 100_000 });
		say('a');
		say('b');
		await settled(2);
		expect(bot()).toEqual([]);
		expect(people().sort()).toEqual(['a', 'b']);
		for (const json of output(1))
			expect(json.takeover).toMatchObject({
				paused: null,
				error: expect.stringMatching(/^Pause not checked: The service is temporarily unavailable/),
			});
	});
});

describe('Human Takeover off', () => {
	it('keeps one output and reads nothing', async () => {
		await activeTrigger({ handoverWords: 'human' });
		await own('/bot off');
		say('human');
		await settled(1);
		expect(trigger.executions.map((execution) => execution.outputs.length)).toEqual([1]);
		expect(output(0)[0]).not.toHaveProperty('takeover');
		expect(reads()).toHaveLength(0);
	});
});
