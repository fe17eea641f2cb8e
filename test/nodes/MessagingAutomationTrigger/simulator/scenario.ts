/**
 * What one simulated case is, and how fast-check generates it: a person's bursts and typing gaps,
 * how the service saves and delivers each message (late, trickled, together, out of order, saved
 * late with its old timestamp), copies and retries, read failures, n8n failing to record a run,
 * process stops, two webhook processes, the phone's and the host's clocks, the trigger's settings.
 * A family turns groups of these on, so that each can be held to the invariants on its own.
 */
import fc from 'fast-check';
import { CATCH_UP_AFTER_MS } from '../../../../nodes/shared/conversation/catchUp';

import { ownUrlArb, type OwnUrlFault } from './ownUrl';
import { ownText, takeoverArb, takeoverOwnArb, type TakeoverSetup } from './takeover';
import type { ReadFault } from './service';

export type DeliveryShape = 'prompt' | 'together' | 'trickle' | 'scattered';

export interface Burst {
	/** Who writes it (0 or 1), each in a one-to-one chat of their own. */
	person: number;
	/**
	 * Quiet before its first message after the previous burst's last; a burst of the other person
	 * starts that much less the quiet window and a second after the previous burst's first, so
	 * the two overlap.
	 */
	pauseMs: number;
	/** Typing gaps between its messages; one message more than gaps. */
	gapsMs: number[];
	/**
	 * The phone was offline: the burst is saved this long after its last message was typed, one
	 * message every `saveGapMs`, each with its old timestamp. 0: each is saved as it is typed.
	 */
	offlineMs: number;
	saveGapMs: number;
}

export interface Case {
	/** Where in its second (service time) the case begins: signatures carry whole seconds. */
	phaseMs: number;
	quietMs: number;
	longestMs: number;
	dedupe: boolean;
	processes: 1 | 2;
	bursts: Burst[];
	/** Per message, in order: how much after it was written (or came online) the service saved it. */
	saveJitterMs: number[];
	delivery: { shape: DeliveryShape; lateMs: number; trickleMs: number; scatterMs: number[] };
	/** Messages (by index) the service saves but whose event it never queues (spec, Delivery 6). */
	lost?: number[];
	/** Messages (by index) whose event is delivered a second time, and how much later. */
	copies: Array<{ message: number; afterMs: number }>;
	/** Each retry's jitter, in the order retries happen (−0.2 … 0.2). */
	jitter: number[];
	/** Which process takes each delivery attempt, in order (modulo the processes). */
	route: number[];
	readFaults: ReadFault[];
	readLatencyMs: number;
	/** Runs (by hand-over index) n8n fails to record, and after which it is stopped before answering. */
	recordFails: number[];
	/**
	 * n8n's processed-data store failing every claim (a locked database) for `forMs`, from this
	 * long after a message's first delivery attempt; shorter than the claim's waits (claimStore.ts).
	 */
	claimOutages?: Array<{ afterMessage: number; delayMs: number; forMs: number }>;
	stopsAfterRecording: number[];
	/** The account writes in the chat (from its phone) this long after a person's message was typed: it ends a burst. */
	ownMessages: Array<{ afterMessage: number; delayMs: number; nearNextMs?: number }>;
	/** Pass Answers to Send and Wait on, with questions waiting; undefined: off. */
	answers?: Answers;
	/**
	 * The Catch-Up node beside the trigger (pollProcess.ts), polling every minute in the first
	 * process: it runs what no delivery will, such as an answer whose offer n8n stopped (S8-1).
	 */
	catchUp?: boolean;
	/** n8n's own URL failing for its processes' requests to its waiting webhooks (ownUrl.ts). */
	ownUrl?: OwnUrlFault;
	/** Human Takeover on: the account's commands, people's hand-over words (takeover.ts). */
	takeover?: TakeoverSetup;
	/** A process stops this long after a message's first delivery attempt (it comes back at once, its memory gone). */
	stops: Array<{ afterMessage: number; delayMs: number; process: number }>;
	phone: { skewMs: number; step?: { atMessage: number; ms: number } };
	/** The host's clock steps this long after a message's first delivery attempt. */
	host: { skewMs: number; step?: { afterMessage: number; delayMs: number; ms: number } };
}

/** What a family generates; everything else stays at the plain case (prompt, no faults, one process). */
export interface Knobs {
	late?: boolean;
	longQuiet?: boolean;
	dedupeOff?: boolean;
	copies?: boolean;
	readFaults?: boolean;
	unrecorded?: boolean;
	stops?: boolean;
	twoProcesses?: boolean;
	phoneClock?: boolean;
	hostClock?: boolean;
	ownMessages?: boolean;
	twoPeople?: boolean;
	answers?: boolean;
	/** Lost events; the person's bursts at least the catch-up delay apart (catchUp.ts). */
	lost?: boolean;
	/** The Catch-Up node added beside the trigger. */
	catchUp?: boolean;
	/** n8n's own URL failing (ownUrl.ts). */
	ownUrl?: boolean;
	/** Human Takeover: the account's messages are commands and replies, people write hand-over words. */
	takeover?: boolean;
	/** Lost events, with the Catch-Up node, in half the cases (the others' bursts come closer). */
	someLost?: boolean;
}

const QUIET_WINDOWS = [2000, 3000, 5000];
/** The longest store outage generated: within the claim's waits (25.5 s), with a margin. */
const CLAIM_OUTAGE_MAX_MS = 24_000;
const LONG_QUIET_WINDOWS = [9000, 12_000];

/**
 * With lost events, bursts come at least this long after the previous one closed: a lost burst is
 * caught up by a later burst only once it closed CATCH_UP_AFTER_MS before (catchUp.ts); one
 * followed sooner, and then nothing, is issue 45's chat where nothing follows, left to a later slice.
 */
const LOST_PAUSE_MS = CATCH_UP_AFTER_MS + 1000;

function burstArb(
	quietMs: number,
	late: boolean,
	people: number,
	lost: boolean,
): fc.Arbitrary<Burst> {
	return fc.record({
		person: fc.nat(people - 1),
		pauseMs: lost
			? fc.integer({ min: quietMs + LOST_PAUSE_MS, max: quietMs + LOST_PAUSE_MS + 60_000 })
			: fc.integer({ min: quietMs + 1000, max: quietMs + 60_000 }),
		gapsMs: fc.array(fc.integer({ min: 50, max: quietMs - 300 }), { maxLength: 4 }),
		offlineMs: late
			? fc.oneof(fc.constant(0), fc.integer({ min: 5000, max: 150_000 }))
			: fc.constant(0),
		saveGapMs: fc.constantFrom(20, 100, 300, 1000),
	});
}

const deliveryArb = (late: boolean, messages: number) =>
	fc.record({
		shape: late
			? fc.constantFrom<DeliveryShape>('prompt', 'together', 'trickle', 'scattered')
			: fc.constant<DeliveryShape>('prompt'),
		lateMs: late ? fc.integer({ min: 0, max: 60_000 }) : fc.constant(0),
		trickleMs: fc.constantFrom(20, 100, 300, 1000),
		scatterMs: fc.array(fc.integer({ min: 0, max: late ? 40_000 : 300 }), {
			minLength: messages,
			maxLength: messages,
		}),
	});

/** A case of the family `knobs` turns on. */
export function caseArb(knobs: Knobs): fc.Arbitrary<Case> {
	if (knobs.someLost) {
		const rest = { ...knobs, someLost: false };
		return fc.oneof(caseArb({ ...rest, lost: true, catchUp: true }), caseArb(rest));
	}
	const quiet = fc.constantFrom(...(knobs.longQuiet ? LONG_QUIET_WINDOWS : QUIET_WINDOWS));
	return quiet.chain((quietMs) =>
		fc
			.array(burstArb(quietMs, knobs.late === true, knobs.twoPeople ? 2 : 1, knobs.lost === true), {
				minLength: 1,
				maxLength: 3,
			})
			.chain((bursts) => {
				const messages = bursts.reduce((sum, burst) => sum + burst.gapsMs.length + 1, 0);
				const index = fc.integer({ min: 0, max: messages - 1 });
				return fc.record({
					phaseMs: fc.integer({ min: 0, max: 999 }),
					quietMs: fc.constant(quietMs),
					longestMs: fc.constantFrom(20_000, 30_000),
					dedupe: knobs.dedupeOff ? fc.boolean() : fc.constant(true),
					processes: knobs.twoProcesses ? fc.constantFrom<1 | 2>(1, 2) : fc.constant<1 | 2>(1),
					bursts: fc.constant(bursts),
					saveJitterMs: fc.array(fc.integer({ min: 0, max: 200 }), {
						minLength: messages,
						maxLength: messages,
					}),
					delivery: deliveryArb(knobs.late === true, messages),
					lost: knobs.lost
						? fc.uniqueArray(index, { minLength: 1, maxLength: 2 })
						: fc.constant([]),
					copies: knobs.copies
						? fc.array(
								fc.record({ message: index, afterMs: fc.integer({ min: 0, max: 20_000 }) }),
								{ maxLength: 2 },
							)
						: fc.constant([]),
					jitter: fc.array(fc.double({ min: -0.2, max: 0.2, noNaN: true }), {
						minLength: 8,
						maxLength: 8,
					}),
					route: fc.array(fc.nat(1), { minLength: 1, maxLength: 12 }),
					readFaults: knobs.readFaults
						? fc.array(fc.constantFrom<ReadFault>(undefined, 429, 503), { maxLength: 6 })
						: fc.constant([]),
					readLatencyMs: fc.integer({ min: 5, max: 400 }),
					recordFails: knobs.unrecorded ? fc.array(fc.nat(4), { maxLength: 2 }) : fc.constant([]),
					claimOutages: knobs.unrecorded
						? fc.array(
								fc.record({
									afterMessage: index,
									delayMs: fc.integer({ min: 0, max: 45_000 }),
									forMs: fc.integer({ min: 0, max: CLAIM_OUTAGE_MAX_MS }),
								}),
								// One: two outages in a row could outlast the claim's waits.
								{ maxLength: 1 },
							)
						: fc.constant([]),
					ownMessages: knobs.takeover
						? takeoverOwnArb(index, quietMs)
						: knobs.ownMessages
							? fc.array(
									fc.record({
										afterMessage: index,
										delayMs: fc.integer({ min: 10, max: quietMs - 10 }),
										// Or this close to the person's next message: the race of typing and saving.
										nearNextMs: fc.option(fc.integer({ min: -500, max: 500 }), { nil: undefined }),
									}),
									{
										maxLength: 2,
									},
								)
							: fc.constant([]),
					answers: knobs.answers
						? fc.record({
								n8nLine: fc.constantFrom<1 | 2>(1, 2),
								questions: fc.array(
									fc.record({
										afterMessage: fc.integer({ min: -1, max: messages - 1 }),
										delayMs: fc.integer({ min: 10, max: 3000 }),
									}),
									{ minLength: 1, maxLength: 2 },
								),
								replies: fc.array(
									fc.record({
										message: index,
										text: fc.constantFrom<ReplyText>('1', '2', 'why?'),
										quotes: fc.option(fc.nat(1), { nil: undefined }),
									}),
									{ maxLength: 3 },
								),
							})
						: fc.constant(undefined),
					// Left out when off, so a family without it generates (and seeds) its cases as before.
					...(knobs.catchUp ? { catchUp: fc.constant(true) } : {}),
					...(knobs.ownUrl ? { ownUrl: ownUrlArb(index) } : {}),
					...(knobs.takeover ? { takeover: takeoverArb(index, knobs.twoPeople ? 2 : 1) } : {}),
					stopsAfterRecording: knobs.stops
						? fc.array(fc.nat(4), { maxLength: 1 })
						: fc.constant([]),
					stops: knobs.stops
						? fc.array(
								fc.record({
									afterMessage: index,
									delayMs: fc.integer({ min: 0, max: 12_000 }),
									process: fc.nat(1),
								}),
								{
									maxLength: 2,
								},
							)
						: fc.constant([]),
					phone: knobs.phoneClock
						? fc.record({
								skewMs: fc.integer({ min: -120_000, max: 2000 }),
								step: fc.option(
									fc.record({ atMessage: index, ms: fc.integer({ min: 0, max: 20_000 }) }),
									{ nil: undefined },
								),
							})
						: fc.record({ skewMs: fc.integer({ min: -300, max: 300 }) }),
					host: knobs.hostClock
						? fc.record({
								skewMs: fc.integer({ min: -60_000, max: 60_000 }),
								step: fc.option(
									fc.record({
										afterMessage: index,
										delayMs: fc.integer({ min: 0, max: 9000 }),
										ms: fc.integer({ min: -30_000, max: 30_000 }),
									}),
									{ nil: undefined },
								),
							})
						: fc.record({ skewMs: fc.integer({ min: -60_000, max: 60_000 }) }),
				});
			}),
	);
}

export type ReplyText = '1' | '2' | 'why?';

export interface Answers {
	/** n8n 1.x resumes an execution as often as its node says so; 2.x once. */
	n8nLine: 1 | 2;
	/** Each question (a waiting Send and Wait execution) is written this long after a person's message; -1: before the first. */
	questions: Array<{ afterMessage: number; delayMs: number }>;
	/** The person's replies: a message's text, and the question (by index) it quotes. */
	replies: Array<{ message: number; text: ReplyText; quotes?: number }>;
}

export interface PlannedMessage {
	id: string;
	index: number;
	person: number;
	burst: number;
	/** True time it was typed (case time, ms). */
	typedAt: number;
	/** The phone's timestamp (case time). */
	stampedAt: number;
	/** True time the service saved it (case time). */
	savedAt: number;
	/** True time of its event's first delivery attempt (case time). */
	firstAttemptAt: number;
}

/** Every message of `c` with its times, in typed order. Case time starts at 1 s. */
export function plannedMessages(c: Case): PlannedMessage[] {
	const planned: PlannedMessage[] = [];
	let phoneStep = 0;
	/** When the last burst of anyone ended, and where the previous burst started. */
	let end = 1000 - (c.bursts[0]?.pauseMs ?? 0);
	let previous: { person: number; start: number } | undefined;
	c.bursts.forEach((burst, burstIndex) => {
		const start = planned.length;
		const other = previous !== undefined && previous.person !== burst.person;
		let typedAt = other
			? (previous?.start ?? 0) + 1000 + Math.max(0, burst.pauseMs - c.quietMs - 1000)
			: end + burst.pauseMs;
		previous = { person: burst.person, start: typedAt };
		[0, ...burst.gapsMs].forEach((gap) => {
			typedAt += gap;
			const index = planned.length;
			if (c.phone.step?.atMessage === index) phoneStep = c.phone.step.ms;
			const stampedAt = typedAt + c.phone.skewMs + phoneStep;
			planned.push({
				id: `m${index + 1}`,
				index,
				person: burst.person,
				burst: burstIndex,
				typedAt,
				stampedAt,
				savedAt: typedAt,
				firstAttemptAt: 0,
			});
		});
		const own = planned.slice(start);
		end = Math.max(end, typedAt);
		own.forEach((message, position) => {
			const online =
				burst.offlineMs > 0
					? typedAt + burst.offlineMs + position * burst.saveGapMs
					: message.typedAt;
			message.savedAt = online + (c.saveJitterMs[message.index] ?? 0);
		});
		const lastSaved = Math.max(...own.map((message) => message.savedAt));
		own.forEach((message, position) => {
			const scatter = c.delivery.scatterMs[message.index] ?? 0;
			const { shape, lateMs, trickleMs } = c.delivery;
			message.firstAttemptAt =
				shape === 'prompt'
					? message.savedAt + scatter
					: shape === 'together'
						? lastSaved + lateMs
						: shape === 'trickle'
							? lastSaved + lateMs + position * trickleMs
							: message.savedAt + scatter;
		});
	});
	return planned;
}

export interface OwnMessage {
	id: string;
	person: number;
	/** Its timestamp and the time it was saved: the account's clock is right (case time). */
	at: number;
	/** Its text, with Human Takeover (takeover.ts); else the world's reply. */
	text?: string;
}

/**
 * The account's messages of `c`: each `delayMs` after the person's message it follows was typed, or
 * `nearNextMs` from the person's next message.
 */
export function ownMessages(c: Case, messages: readonly PlannedMessage[]): OwnMessage[] {
	return c.ownMessages.flatMap((own, index) => {
		const after = messages[own.afterMessage];
		const next = messages.find(
			(message) => message.index > own.afterMessage && message.person === after?.person,
		);
		if (!after) return [];
		const at =
			own.nearNextMs !== undefined && next
				? next.typedAt + own.nearNextMs
				: after.typedAt + own.delayMs;
		const text = c.takeover ? { text: ownText(c.takeover, index) } : {};
		return [{ id: `o${index + 1}`, person: after.person, at, ...text }];
	});
}
