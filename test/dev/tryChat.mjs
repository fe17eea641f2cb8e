// `npm run try` for the examples that answer chats: the reply bot, the AI reply bot and its takeover.
// Whether Dana's chat is paused is judged as the trigger judges it, by its own code (its parameters
// read by readSettings, the pause by pauseAt) on her saved messages, so a paused chat is said at once.
import { readFileSync } from 'node:fs';
import { duration, newSends, quote } from './tryReport.mjs';
import { CUSTOMER, DANA, FIRST, LINES, QUICK_MESSAGES, RunFirst, STAFF } from './tryLines.mjs';

const ALICE = { phone: CUSTOMER, name: 'Alice' };
const AI_BOT = new URL('./workflows/ai-reply-bot.json', import.meta.url);

/** A TypeScript module's exports, under vitest or under tsx (which hands CommonJS over as `default`). */
async function load(path) {
	const module = await import(path);
	return module.default ?? module;
}

/** The AI reply bot trigger's takeover rules, read by the trigger's own settings reader. */
async function takeoverRules() {
	const { readSettings } = await load('../../nodes/MessagingAutomationTrigger/settings.ts');
	const trigger = JSON.parse(readFileSync(AI_BOT, 'utf8')).nodes.find(
		(node) => node.parameters?.humanTakeover,
	);
	const context = {
		getNodeParameter: (name, fallback) => trigger.parameters[name] ?? fallback,
	};
	return readSettings(context).turn.takeover;
}

const utc = (iso) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** The actions of the chat examples, over the helpers of tryContext. */
export function chatActions({ control, sends, inject, tool, until }) {
	const sendIds = async () => new Set((await sends()).map((send) => send.message_id));

	/** Dana's Business chat: whether the account may write in it now, and its conversation id. */
	const danaChat = () =>
		tool('check_recipient_send_options', { channel: 'business', phoneNumber: DANA.phone });

	/** Whether Dana's next message would be paused, judged as the trigger will judge it. */
	async function pauseOfNext() {
		const { conversation_id: conversationId } = await danaChat();
		const read = await tool('get_messages', { conversationId, limit: 100 }).catch(() => undefined);
		if (!read) return { paused: false };
		const [{ timelineOf }, { pauseAt }, rules, { now }] = await Promise.all([
			load('../../nodes/shared/conversation/timeline.ts'),
			load('../../nodes/shared/conversation/takeover.ts'),
			takeoverRules(),
			control('GET', '/clock'),
		]);
		// Her next message, written now (the sandbox's clock): the trigger judges it so.
		const next = { id: 'next', at: Date.parse(now), fromMe: false, author: '', message: {} };
		return pauseAt([...timelineOf(read), next], 'next', rules);
	}

	async function replyBot() {
		const before = await sendIds();
		const { message } = await inject(ALICE, 'Hello!');
		const sent = Date.now();
		const reply = await until(
			'the reply bot\'s answer to Alice (is "Example: reply bot" active?)',
			async () =>
				newSends(before, await sends()).find(
					(send) => send.conversation_id === message.conversation_id,
				),
		);
		return LINES.replyBot({ took: duration(Date.now() - sent), reply: quote(reply.text) });
	}

	/** Dana's quick messages, one after the other; waits for the AI reply bot's one answer to them. */
	/** Throws the one line "her chat is paused: run bot-on first" when the bot would not answer her. */
	async function notPaused() {
		const pause = await pauseOfNext();
		if (pause.paused)
			throw new RunFirst(
				FIRST.paused({
					since: utc(pause.since),
					how: pause.by === 'command' ? `the account sent ${pause.text}` : 'she asked for a person',
				}),
			);
	}

	async function aiBot() {
		await notPaused();
		const before = await sendIds();
		const started = Date.now();
		let conversation;
		for (const text of QUICK_MESSAGES)
			({
				message: { conversation_id: conversation },
			} = await inject(DANA, text, 'business'));
		const wrote = Date.now();
		const reply = await until(
			'the AI reply bot\'s one answer to Dana, after its 5 s quiet window (is "Example: AI reply bot" active?)',
			async () =>
				newSends(before, await sends()).find((send) => send.conversation_id === conversation),
		);
		return LINES.aiBot({
			within: duration(wrote - started),
			after: duration(Date.now() - wrote),
			reply: quote(reply.text),
		});
	}

	/**
	 * A message the service saves and whose event it loses (spec, Delivery 6; the sandbox's lose
	 * fault): no delivery is ever queued, so nothing runs until her next message's run catches it up.
	 */
	async function lostEvent() {
		await notPaused();
		await control('POST', '/webhooks/faults', { lose: 1 });
		const text = 'is anyone there?';
		const { message } = await inject(DANA, text, 'business');
		const { deliveries, faults } = await control('GET', '/webhooks');
		const queued = deliveries.some((delivery) => delivery.payload?.includes(message.id));
		if (queued || faults.lose !== 0)
			throw new Error(
				`the sandbox queued an event for ${message.id} (lose fault: ${faults.lose} left)`,
			);
		return LINES.lostEvent({ text, id: message.id });
	}

	/** Dana asks for a person: the bot pauses in her chat, and waits for the staff number's note. */
	async function handOver() {
		const before = await sendIds();
		await inject(DANA, 'can I talk to a human?', 'business');
		const note = await until(
			`the note to the staff number ${STAFF}, after the 5 s quiet window (on QR, which sends 5 messages a minute)`,
			async () => newSends(before, await sends()).find((send) => send.to === STAFF),
		);
		return LINES.handOver({ note: quote(note.text) });
	}

	/** The account's `/bot off` or `/bot on` in Dana's chat (as if typed on its phone). */
	async function botCommand(command) {
		if (command === '/bot on' && !(await pauseOfNext()).paused) return LINES.notPaused();
		const chat = await danaChat();
		if (!chat.customer_service_window_open) throw new RunFirst(FIRST.windowClosed(command));
		await tool('send_message', { channel: 'business', phoneNumber: DANA.phone, text: command });
		return command === '/bot off' ? LINES.botOff() : LINES.botOn();
	}

	return {
		'reply-bot': replyBot,
		'ai-bot': aiBot,
		'hand-over': handOver,
		'lost-event': lostEvent,
		'bot-off': () => botCommand('/bot off'),
		'bot-on': () => botCommand('/bot on'),
	};
}
