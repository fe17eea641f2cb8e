/**
 * The one takeover rule (docs/takeover.md), drawn from the chat's saved messages as the case wrote
 * them, never with the product's takeover code: the latest pause command or hand-over within Resume
 * After at or before a message pauses its chat there, unless the resume command came after it (the
 * messages' timestamps decide, the service's order). A burst goes to Paused Chats when its last
 * message is paused, a hand-over in its middle included, or when the account typed a command while
 * the burst waited out its quiet window, before it closed on the service's clock (its quiet window
 * or Longest Wait by the phone's stamps, plus the phone's lag: conversations.md, Human takeover),
 * else to Bot; a run
 * whose read failed goes to Paused Chats saying its pause was not checked. Each run's item comes
 * out of one output, and says in `takeover.paused` what sent it there.
 *
 * The limit a read sets: no read shows a message before the service saved it. A run is judged by
 * the chat as it was saved at some moment between its last message's save and its record (its
 * read comes then), so a message stamped earlier but uploaded after that pauses nothing for it.
 */
import type { Case } from './scenario';
import { ownTextOf, resumeAfterMs, type TakeoverSetup } from './takeover';
import type { Outcome } from './world';

type Run = Outcome['runs'][number];
/** invariants.ts's Violation of this rule (not imported: invariants.ts imports this module). */
type Broken = { rule: 'takeover'; detail: string };
type Signal = 'pause' | 'resume' | 'handover';

/** A saved message of a chat, with what it signals by the case. */
interface Entry {
	id: string;
	stamp: number;
	saved: number;
	/** Order of writing into the service: of two saved alike, the later is newer. */
	written: number;
	own: boolean;
	signal?: Signal;
}

/** What the account's message `id` signals: `o0` the pause before the case, `oN` its text's kind. */
function ownSignal(setup: TakeoverSetup, id: string): Signal | undefined {
	if (id === 'o0') return 'pause';
	const number = /^o(\d+)$/.exec(id)?.[1];
	const kind = number === undefined ? 'reply' : ownTextOf(setup, Number(number) - 1);
	return kind === 'reply' ? undefined : kind;
}

/** A person's chat, oldest first, as the service orders it (timestamp, then save, then writing). */
function chatOf(setup: TakeoverSetup, outcome: Outcome, person: number): Entry[] {
	const people = outcome.messages
		.filter((message) => message.person === person)
		.map((message) => ({
			id: message.id,
			stamp: message.stampedAt,
			saved: message.savedAt,
			written: message.index,
			own: false,
			signal: setup.handovers.includes(message.index) ? ('handover' as const) : undefined,
		}));
	const own = outcome.own
		.map((message, position) => ({ message, position }))
		.filter(({ message }) => message.person === person)
		.map(({ message, position }) => ({
			id: message.id,
			stamp: message.at,
			saved: message.at,
			written: 1e6 + position,
			own: true,
			signal: ownSignal(setup, message.id),
		}));
	return [...people, ...own].sort(
		(a, b) => a.stamp - b.stamp || a.saved - b.saved || a.written - b.written,
	);
}

/** The message that pauses the chat at `pivot`, as `visible` shows it; undefined: not paused. */
function pausedBy(visible: readonly Entry[], pivot: Entry, resumeMs: number): Entry | undefined {
	for (let position = visible.indexOf(pivot); position >= 0; position--) {
		const entry = visible[position];
		if (resumeMs > 0 && pivot.stamp - entry.stamp >= resumeMs) return undefined;
		if (entry.signal === 'resume') return undefined;
		if (entry.signal) return entry;
	}
	return undefined;
}

/** When the run's read may have come: each save from `earliest` to its record. */
function readTimes(chat: readonly Entry[], earliest: number, run: Run): Set<number> {
	const times = [earliest, run.at, ...chat.map((entry) => entry.saved)];
	return new Set(times.filter((at) => at >= earliest && at <= Math.max(run.at, earliest)));
}

/** The run's burst as its messages were stamped and saved: its first and last, and its phone's lags. */
function burstOf(chat: readonly Entry[], run: Run) {
	const positions = run.messageIds.map((id) => chat.findIndex((entry) => entry.id === id));
	const lags = positions.map((position) =>
		Math.max(0, chat[position].saved - chat[position].stamp),
	);
	return {
		first: chat[Math.min(...positions)],
		last: chat[Math.max(...positions)],
		lags: [...new Set([Math.min(...lags), Math.max(...lags)])],
	};
}

/**
 * Each pause state the rule allows the run, with why. A read that runs the burst comes once it
 * closed (by the phone's stamps plus its lag), or once the account's message that closed it was
 * saved, and judges it at the newest account message typed before its close, by the stamps or
 * once the service had its last message (the phone's lag: the smallest or the largest of its
 * messages', as the delivery that runs it shows), before its author's next message it can see.
 */
function allowed(c: Case, setup: TakeoverSetup, chat: readonly Entry[], run: Run) {
	const { first, last, lags } = burstOf(chat, run);
	const closed = Math.min(last.stamp + c.quietMs, first.stamp + c.longestMs);
	const states = new Map<boolean, string>();
	for (const lag of lags) {
		const inWindow = (entry: Entry) =>
			entry.stamp <= closed || (entry.stamp >= last.stamp + lag && entry.stamp <= closed + lag);
		const after = chat.slice(chat.indexOf(last) + 1);
		const closer = after.find((entry) => entry.own && entry.stamp <= closed + lag);
		// A run recorded sooner (none is, by the product) had its read by then.
		const earliest = Math.max(
			last.saved,
			Math.min(closed + lag, closer?.saved ?? Infinity, run.at),
		);
		for (const at of readTimes(chat, earliest, run)) {
			const visible = chat.filter((entry) => entry.saved <= at);
			const seen = visible.slice(visible.indexOf(last) + 1);
			const next = seen.findIndex((entry) => !entry.own);
			const window = (next < 0 ? seen : seen.slice(0, next)).filter(
				(entry) => entry.own && entry.stamp <= closed + lag && inWindow(entry),
			);
			const pivot = window[window.length - 1] ?? last;
			const by = pausedBy(visible, pivot, resumeAfterMs(setup));
			states.set(
				by !== undefined,
				by ? `paused at ${pivot.id} by ${by.id} (${by.signal})` : `not paused at ${pivot.id}`,
			);
		}
	}
	return states;
}

const OUTPUT_NAMES = ['Bot', 'Paused Chats'];

/** What is wrong with one run's output, if anything. */
function runBroken(c: Case, setup: TakeoverSetup, outcome: Outcome, run: Run): string | undefined {
	const outputs = run.outputs ?? [];
	if (outputs.length !== 1)
		return `came out of ${outputs.map((o) => OUTPUT_NAMES[o]).join(' and ') || 'no output'}`;
	const [output] = outputs;
	const said = `came out of ${OUTPUT_NAMES[output]} (takeover.paused ${String(run.paused)})`;
	if (run.paused === undefined) return `${said}: no takeover field`;
	if ((output === 1) !== (run.paused !== false))
		return `${said}: the output and its pause disagree`;
	// A read that failed: the pause was not checked, and the item says why (a grouping error too).
	if (run.paused === null) return run.groupingError ? undefined : `${said}, though it was read`;
	const person = outcome.messages.find((message) => message.id === run.messageIds[0])?.person;
	const chat = chatOf(setup, outcome, person ?? 0);
	const states = allowed(c, setup, chat, run);
	if (states.has(run.paused)) return undefined;
	return `${said}; ${[...states.values()].join(', or ')}${laterOwn(setup, chat, run)}`;
}

/**
 * Triage: whether the run's pause is the chat's at the account's newest message after its last,
 * as a read between that one's save and the run's record shows it (T12-1 after the person's next
 * message, T12-2 before it, after the quiet window).
 */
function laterOwn(setup: TakeoverSetup, chat: readonly Entry[], run: Run): string {
	const index = Math.max(...run.messageIds.map((id) => chat.findIndex((entry) => entry.id === id)));
	for (const at of readTimes(chat, chat[index].saved, run)) {
		const visible = chat.filter((entry) => entry.saved <= at);
		const later = visible.filter((entry) => entry.own && chat.indexOf(entry) > index);
		const newest = later[later.length - 1];
		if (!newest || (pausedBy(visible, newest, resumeAfterMs(setup)) !== undefined) !== run.paused)
			continue;
		const between = chat.slice(index + 1, chat.indexOf(newest)).some((entry) => !entry.own);
		return ` (as at ${newest.id}, the account's newest message after it: ${between ? 'T12-1' : 'T12-2'})`;
	}
	return '';
}

/** Every passed-on run's item out of the output the rule names, and only that one. */
export function takeoverViolations(c: Case, outcome: Outcome): Broken[] {
	const setup = c.takeover;
	if (!setup) return [];
	return outcome.runs
		.filter((run) => run.passedOn)
		.flatMap((run) => {
			const broken = runBroken(c, setup, outcome, run);
			const by = run.polled ? "the Catch-Up poll's " : '';
			return broken
				? [
						{
							rule: 'takeover' as const,
							detail: `${by}run of [${run.messageIds.join(' ')}] ${broken}`,
						},
					]
				: [];
		});
}
