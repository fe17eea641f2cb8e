/**
 * Human Takeover in the simulator (docs/takeover.md): the trigger's two outputs, Bot and Paused
 * Chats, with the account pausing and resuming chats by its own commands and people writing
 * hand-over words, interleaved with their bursts. The case says which of the account's messages is
 * a command and which person's message holds a hand-over word; the texts are written here, in the
 * forms the promise names (case and spaces ignored, a whole word in any case), with near misses
 * that pause nothing (a command inside a longer text, a customer typing the command, `humane`).
 * Which message pauses what is known from the case alone: takeoverRule.ts never asks the product.
 */
import fc from 'fast-check';

import type { OwnMessage, PlannedMessage } from './scenario';

/** What one of the account's messages says: the pause command, the resume command, a reply. */
export type OwnText = 'pause' | 'resume' | 'reply';

export interface TakeoverSetup {
	/** Resume After (Hours): 0 (only the resume command ends a pause), 0.1 (6 minutes), 12. */
	resumeAfterHours: number;
	/** Each of the account's messages' text (c.ownMessages, in order; cycled). */
	own: OwnText[];
	/** Person's messages (by index) holding a hand-over word. */
	handovers: number[];
	/** The account paused this person's chat this long before their first message. */
	pausedBefore?: { person: number; beforeMs: number };
}

export const PAUSE_COMMAND = '/bot off';
export const RESUME_COMMAND = '/bot on';
export const HANDOVER_WORDS = 'human, talk to a person';

/** The Trigger's Human Takeover parameters for `setup`; nothing when the case has none. */
export const takeoverParameters = (setup: TakeoverSetup | undefined) =>
	setup
		? {
				humanTakeover: true,
				pauseCommand: PAUSE_COMMAND,
				resumeCommand: RESUME_COMMAND,
				handoverWords: HANDOVER_WORDS,
				resumeAfterHours: setup.resumeAfterHours,
			}
		: {};

/** Resume After in ms, as the hours the node is given. */
export const resumeAfterMs = (setup: TakeoverSetup) => setup.resumeAfterHours * 3_600_000;

/** The texts each kind is written in, picked by the message's position (a command in other case and spacing). */
const OWN_TEXTS: Record<OwnText, readonly string[]> = {
	pause: ['/bot off', '  /Bot   OFF '],
	resume: ['/bot on', '/BOT ON  '],
	reply: ['On it', 'please /bot off now'],
};
const HANDOVER_TEXTS = ['can I talk to a HUMAN?', 'Talk to a   person, please'];
/** A person's messages that look like takeover and are not: no hand-over word, no command of theirs. */
const NEAR_MISSES = ['that was humane', '/bot off', 'humans'];

/** Kind of the account's message number `index` (c.ownMessages order). */
export const ownTextOf = (setup: TakeoverSetup, index: number): OwnText =>
	setup.own.length > 0 ? setup.own[index % setup.own.length] : 'reply';

/** The account's message's text. */
export const ownText = (setup: TakeoverSetup | undefined, index: number): string => {
	if (!setup) return 'On it';
	const texts = OWN_TEXTS[ownTextOf(setup, index)];
	return texts[index % texts.length];
};

/** A person's message's text: its id, with a hand-over phrase or a near miss after it. */
export function personText(setup: TakeoverSetup | undefined, message: PlannedMessage): string {
	if (!setup) return message.id;
	if (setup.handovers.includes(message.index))
		return `${message.id} ${HANDOVER_TEXTS[message.index % HANDOVER_TEXTS.length]}`;
	return message.index % 3 === 0
		? `${message.id} ${NEAR_MISSES[message.index % NEAR_MISSES.length]}`
		: message.id;
}

/** The pause command written before the case in a person's chat (id `o0`), if the case has one. */
export function pausedBeforeMessage(
	setup: TakeoverSetup | undefined,
	messages: readonly PlannedMessage[],
): OwnMessage[] {
	const before = setup?.pausedBefore;
	const first = messages.find((message) => message.person === before?.person);
	if (!before || !first) return [];
	return [
		{ id: 'o0', person: before.person, at: first.typedAt - before.beforeMs, text: PAUSE_COMMAND },
	];
}

/** A case's takeover: its Resume After, the account's texts, hand-overs, maybe a chat paused before. */
export const takeoverArb = (
	index: fc.Arbitrary<number>,
	people: number,
): fc.Arbitrary<TakeoverSetup> =>
	fc.record({
		resumeAfterHours: fc.constantFrom(0, 0.1, 12),
		own: fc.array(fc.constantFrom<OwnText>('pause', 'resume', 'reply'), {
			minLength: 4,
			maxLength: 4,
		}),
		handovers: fc.uniqueArray(index, { maxLength: 2 }),
		pausedBefore: fc.option(
			fc.record({
				person: fc.nat(people - 1),
				beforeMs: fc.integer({ min: 1000, max: 7 * 60_000 }),
			}),
			{ nil: undefined },
		),
	});

/**
 * The account's messages of a takeover case: up to four, each in the quiet window after a
 * person's message (it ends the burst: a command typed while it waited), near the person's next
 * one, or well after it (a command typed later, which a late delivery's read shows too).
 */
export const takeoverOwnArb = (index: fc.Arbitrary<number>, quietMs: number) =>
	fc.array(
		fc.record({
			afterMessage: index,
			delayMs: fc.oneof(
				fc.integer({ min: 10, max: quietMs - 10 }),
				fc.integer({ min: quietMs + 10, max: 90_000 }),
			),
			nearNextMs: fc.option(fc.integer({ min: -500, max: 500 }), { nil: undefined, freq: 4 }),
		}),
		{ maxLength: 4 },
	);
