import type { INodeParameters } from 'n8n-workflow';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { DEMO, type SandboxHandle } from '../../../sandbox';
import type { N8nWebhookHost } from '../../../support/n8nWebhook';
import { activeMessageTrigger, settledAfter, useStoppedClock, waitFor } from '../fixtures';
import {
	APPROVAL_RULES,
	startWaitingWebhook,
	type WaitingRequest,
	type WaitingWebhook,
} from './waitingWebhook';

/*
 * Pass Answers to Send and Wait through n8n's webhook machinery, against the sandbox: a person's
 * message is offered to the questions in the conversation's saved messages through their links,
 * and a message taken as an answer starts no run. The links point at a stand-in for n8n's waiting
 * webhooks that records each offer and answers as the Send and Wait node would (the node's side is
 * tested in test/nodes/MessagingAutomation/actions/sendAndWait/chatReply.test.ts).
 */

interface Offer {
	key: string;
	body: WaitingRequest['body'];
}

let sandbox: SandboxHandle;
let trigger: N8nWebhookHost;
let resumeServer: WaitingWebhook;
let resumeOrigin = '';
const offers: Offer[] = [];
/** The keys of the questions probed (a request naming no message), in order. */
const probes: string[] = [];
/** Another host, where no n8n of ours waits: it must never be asked anything. */
let foreignServer: WaitingWebhook;
let foreignOrigin = '';
let foreignRequests = 0;
/** How the stand-in answers an offer to the question with key `key`. */
let verdict: (key: string, messageId: string) => { status: number; answered?: boolean };

useStoppedClock(
	(started) => void (sandbox = started),
	() => trigger,
);

beforeAll(async () => {
	resumeServer = await startWaitingWebhook(({ key, messageIds, body }, reply) => {
		if (messageIds.length === 0) probes.push(key);
		else offers.push({ key, body });
		const { status, answered } = verdict(key, messageIds[0] ?? '');
		if (answered === undefined) reply(status, { message: 'not waiting' });
		else if (messageIds.length === 0)
			reply(status, { answered: false, waiting: true, rules: APPROVAL_RULES });
		else reply(status, answered ? { answered, messageId: messageIds[0] } : { answered });
	});
	resumeOrigin = resumeServer.origin;
	foreignServer = await startWaitingWebhook((_request, reply) => {
		foreignRequests++;
		reply(200, { answered: true });
	});
	foreignOrigin = foreignServer.origin;
});

afterAll(async () => {
	await resumeServer.close();
	await foreignServer.close();
});

beforeEach(() => {
	offers.length = 0;
	probes.length = 0;
	foreignRequests = 0;
	verdict = () => ({ status: 200, answered: true });
});

/** A trigger whose n8n builds its waiting links on the stand-in, as n8n's own WEBHOOK_URL would. */
async function activeTrigger(parameters: INodeParameters = { answersToSendAndWait: true }) {
	trigger = await activeMessageTrigger(sandbox, parameters);
	trigger.waitingBaseUrl = `${resumeOrigin}/webhook-waiting`;
	return trigger;
}

/** A resume link as Send and Wait writes it with Answer in Chat on. */
const link = (key: string, chat = true, origin = resumeOrigin) =>
	`${origin}/webhook-waiting/7/node-1?q=${key}${chat ? '&chat=1' : ''}&approved=true&signature=${'0'.repeat(64)}`;

/** The account's question in Alice's chat, saved as Send and Wait's send would be. */
function question(key: string, chat = true, origin = resumeOrigin): string {
	sandbox.clock.advance(1000);
	return sandbox.inject.injectMessage({
		from: DEMO.alice,
		fromMe: true,
		text: `May we refund?\n\nReply 1 to Approve\n\nApprove: ${link(key, chat, origin)}`,
	}).message.id;
}

function say(
	text: string,
	{ from = DEMO.alice as { phone: string; name: string }, quotedMessageId = '' } = {},
) {
	sandbox.clock.advance(1000);
	return sandbox.inject.injectMessage({
		from,
		text,
		...(quotedMessageId ? { quotedMessageId } : {}),
	}).message;
}

const settled = async (count: number) => await settledAfter(sandbox, trigger, count);

/** The service's attempts to deliver the message `messageId` to the trigger. */
const attemptsOf = (messageId: string) =>
	sandbox.webhooks
		.attempts()
		.filter(
			(attempt) => attempt.url === trigger.url('production') && attempt.body?.includes(messageId),
		);

const ran = () =>
	trigger.executions.flatMap((execution) => execution.items.map((item) => item.json.text));

describe('Pass Answers to Send and Wait', () => {
	it('offers a reply to the question through its link, naming the message; an answer starts no run', async () => {
		await activeTrigger();
		question('k1');
		const answer = say('1');
		await settled(1);
		expect(offers).toEqual([
			{
				key: 'k1',
				body: { chatAnswer: { messageIds: [answer.id], conversationId: answer.conversation_id } },
			},
		]);
		expect(ran()).toEqual([]);
	});

	it('a message the question does not take runs as usual', async () => {
		await activeTrigger();
		question('k1');
		verdict = () => ({ status: 200, answered: false });
		say('1');
		await settled(1);
		expect(offers.map((offer) => offer.key)).toEqual(['k1']);
		expect(ran()).toEqual(['1']);
	});

	it('a message that is no answer by the question’s rules is not offered: only asked whether the question waits, which costs the node no look-up', async () => {
		await activeTrigger();
		question('k1');
		say('hello there');
		say('why?');
		await settled(2);
		expect(probes).toEqual(['k1', 'k1']);
		expect(offers).toEqual([]);
		expect(ran()).toEqual(['hello there', 'why?']);
	});

	it('only the newest question is asked about an unquoted reply; when it no longer waits, the older gets nothing and the message runs, naming the older as waiting', async () => {
		await activeTrigger();
		const old = question('old');
		question('new');
		verdict = (key) => (key === 'new' ? { status: 409 } : { status: 200, answered: true });
		say('2');
		await settled(1);
		expect(probes).toEqual(['new', 'old']);
		expect(offers).toEqual([]);
		expect(ran()).toEqual(['2']);
		expect(trigger.executions[0].items[0].json.waiting_question).toMatchObject({
			message_id: old,
		});
	});

	it('a link that does not start with this n8n’s waiting-webhook URL is never requested, and the message runs', async () => {
		await activeTrigger();
		question('elsewhere', true, foreignOrigin);
		say('1');
		await settled(1);
		expect(foreignRequests).toBe(0);
		expect(offers).toEqual([]);
		expect(ran()).toEqual(['1']);
	});

	it('a failed offer hands the delivery back; the service sends it again and the answer is passed on once', async () => {
		await activeTrigger();
		question('k1');
		verdict = () => ({ status: 503 });
		const answer = say('1');
		await waitFor(() => attemptsOf(answer.id).length >= 1);
		await trigger.settled();
		expect(attemptsOf(answer.id).map((attempt) => attempt.statusCode)).toEqual([503]);
		verdict = () => ({ status: 200, answered: true });
		sandbox.clock.advance(40_000);
		await waitFor(() => attemptsOf(answer.id).length >= 2);
		await trigger.settled();
		expect(attemptsOf(answer.id).map((attempt) => attempt.statusCode)).toEqual([503, 200]);
		expect(probes).toEqual(['k1', 'k1']);
		expect(offers.map((offer) => offer.key)).toEqual(['k1']);
		expect(ran()).toEqual([]);
	});

	it('an offer the node could not decide (503) is made again by the run 3 s later: the answer resumes, never runs, its delivery answered once', async () => {
		await activeTrigger();
		question('k1');
		let offered = 0;
		verdict = (_key, messageId) =>
			messageId !== '' && offered++ === 0 ? { status: 503 } : { status: 200, answered: true };
		const answer = say('1');
		await settled(1);
		await waitFor(() => offers.length >= 2, 10_000);
		await trigger.settled();
		expect(offers.map((offer) => offer.body.chatAnswer?.messageIds)).toEqual([
			[answer.id],
			[answer.id],
		]);
		expect(attemptsOf(answer.id).map((attempt) => attempt.statusCode)).toEqual([200]);
		expect(ran()).toEqual([]);
	});

	it('an offer that still fails once the message is minutes old lets the message run instead of losing it', async () => {
		// Written 4 minutes back, so that the third attempt 3 minutes later still carries a signature of now.
		sandbox.clock.set(Date.now() - 4 * 60_000);
		await activeTrigger();
		question('k1');
		verdict = () => ({ status: 503 });
		const answer = say('1');
		await waitFor(() => attemptsOf(answer.id).length >= 1);
		await trigger.settled();
		// The service's first retry (30 s ±20 %) goes back too; its second (2 min ±20 % later) is the
		// third attempt, after two hand-backs.
		sandbox.clock.advance(40_000);
		await waitFor(() => attemptsOf(answer.id).length >= 2);
		await trigger.settled();
		sandbox.clock.advance(150_000);
		await waitFor(() => attemptsOf(answer.id).length >= 3);
		await trigger.settled();
		expect(attemptsOf(answer.id).map((attempt) => attempt.statusCode)).toEqual([503, 503, 200]);
		expect(ran()).toEqual(['1']);
	});

	it('a reply quoting a question further back than one page is offered to it', async () => {
		await activeTrigger();
		const old = question('far');
		// 70 messages after it, the account's own among them: none is an answer.
		for (let index = 0; index < 70; index++) {
			sandbox.clock.advance(1000);
			sandbox.inject.injectMessage({ from: DEMO.alice, fromMe: true, text: `chat ${index}` });
		}
		say('1', { quotedMessageId: old });
		await settled(1);
		expect(offers.map((offer) => offer.key)).toEqual(['far']);
		expect(ran()).toEqual([]);
	});

	it('a reply quoting a question is offered to that question only', async () => {
		await activeTrigger();
		const old = question('old');
		question('new');
		say('1', { quotedMessageId: old });
		await settled(1);
		expect(offers.map((offer) => offer.key)).toEqual(['old']);
	});

	it('links without the chat mark and messages in other chats offer nothing, and run', async () => {
		await activeTrigger();
		question('links-only', false);
		say('1');
		say('1', { from: DEMO.bob });
		await settled(2);
		expect(offers).toEqual([]);
		expect(ran()).toEqual(['1', '1']);
	});

	it('with the option off, an answer runs the workflow as any message', async () => {
		await activeTrigger({});
		question('k2');
		say('1');
		await settled(1);
		expect(offers).toEqual([]);
		expect(ran()).toEqual(['1']);
	});
});

describe('Pass Answers with Group Quick Messages: one read, and an answer inside a burst', () => {
	const grouped: INodeParameters = {
		answersToSendAndWait: true,
		groupQuickMessages: true,
		quietWindowSeconds: 3,
		longestWaitSeconds: 10,
	};
	const burstTexts = () =>
		trigger.executions.map((execution) =>
			(execution.items[0].json.messages as Array<{ text: string }>).map((entry) => entry.text),
		);
	const onlyAnswer = (id: () => string) => (_key: string, messageId: string) =>
		messageId === id() ? { status: 200, answered: true } : { status: 200, answered: false };

	it('"why?" then "1" in one burst: "why?" runs, "1" resumes its question and is not run', async () => {
		await activeTrigger(grouped);
		question('k1');
		let one = '';
		verdict = onlyAnswer(() => one);
		say('why?');
		one = say('1').id;
		await settled(2);
		expect(offers.map((offer) => [offer.key, offer.body.chatAnswer?.messageIds])).toEqual([
			['k1', [one]],
		]);
		expect(burstTexts()).toEqual([['why?']]);
	});

	it('"1" then "thanks" in one burst: one offer naming only "1", which resumes its question; "thanks" runs', async () => {
		await activeTrigger(grouped);
		question('k1');
		let one = '';
		verdict = onlyAnswer(() => one);
		one = say('1').id;
		say('thanks');
		await settled(2);
		expect(offers.map((offer) => offer.body.chatAnswer?.messageIds)).toEqual([[one]]);
		expect(burstTexts()).toEqual([['thanks']]);
	});

	it('a burst that is only an answer passes nothing on (its execution ends at the trigger), and costs the burst its one read', async () => {
		await activeTrigger(grouped);
		question('k1');
		say('1');
		await settled(1);
		expect(offers).toHaveLength(1);
		expect(trigger.executions.flatMap((execution) => execution.items)).toEqual([]);
		expect(sandbox.calls().filter((call) => call.tool === 'get_messages')).toHaveLength(1);
	});

	it('bursts in chats with no question cost one read each and no offer', async () => {
		await activeTrigger(grouped);
		for (const from of [DEMO.alice, DEMO.bob])
			for (const text of ['hi', 'are you', 'there']) say(text, { from });
		await settled(6);
		expect(offers).toEqual([]);
		expect(burstTexts()).toEqual([
			['hi', 'are you', 'there'],
			['hi', 'are you', 'there'],
		]);
		expect(sandbox.calls().filter((call) => call.tool === 'get_messages')).toHaveLength(2);
	});
});
