import { describe, expect, it } from 'vitest';

import type { BurstRules } from '../../../../nodes/shared/conversation/bursts';
import {
	burstStillOpen,
	nextReadAt,
	settleByRead,
	type HeldMessage,
} from '../../../../nodes/shared/conversation/heldPlan';
import { MAX_PAGES } from '../../../../nodes/shared/conversation/reader';
import {
	toTimelineMessage,
	type TimelineMessage,
} from '../../../../nodes/shared/conversation/timeline';

const RULES: BurstRules = { quietMs: 3000, longestMs: 10_000 };
const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
const at = (seconds: number) => T0 + seconds * 1000;
/** Deliveries are held 8 s from (about) when they were written. */
const HOLD_S = 8;
const LEAD_MS = 300;

interface Spec {
	id: string;
	at: number;
	from?: string;
	me?: boolean;
}

function messages(entries: Spec[]): TimelineMessage[] {
	return entries.map(
		({ id, at: seconds, from = 'alice', me = false }) =>
			toTimelineMessage({
				id,
				conversation_id: 'chat',
				from: { phone: me ? 'account' : from },
				from_me: me,
				text: id,
				timestamp: new Date(at(seconds)).toISOString(),
			}) as TimelineMessage,
	);
}

const asHeld = (list: TimelineMessage[], queuedAt?: number): HeldMessage[] =>
	list.map((message) => ({ message, deadline: message.at + HOLD_S * 1000, queuedAt }));
const held = (entries: Spec[]): HeldMessage[] => asHeld(messages(entries));

const kinds = (outcomes: ReturnType<typeof settleByRead>) =>
	Object.fromEntries([...outcomes].map(([id, outcome]) => [id, outcome.kind]));

describe('nextReadAt', () => {
	it('reads once, when the last of a burst may close, if that comes before the first deadline', () => {
		const burst = held([
			{ id: 'c', at: 2 },
			{ id: 'a', at: 0 },
			{ id: 'b', at: 1 },
		]);
		expect(nextReadAt([], burst, RULES, at(2), LEAD_MS)).toBe(at(5) + 1);
	});

	it('reads before the deadline of a message only the held ones say is carried', () => {
		// a's deadline (8 s) comes before the close of the burst c ends (5.5 + 3 s).
		const burst = held([
			{ id: 'a', at: 0 },
			{ id: 'b', at: 3 },
			{ id: 'c', at: 5.5 },
		]);
		expect(nextReadAt([], burst, RULES, at(5.5), LEAD_MS)).toBe(at(HOLD_S) - LEAD_MS);
	});

	it('plans with the last read: the account message it showed ends the burst before it', () => {
		const known = messages([
			{ id: 'a', at: 0 },
			{ id: 'me', at: 1, me: true },
		]);
		const burst = held([
			{ id: 'a', at: 0 },
			{ id: 'b', at: 2 },
		]);
		// Without the read, a looks carried by b; with it, a's burst closed at the account's message.
		expect(nextReadAt([], burst, RULES, at(2), LEAD_MS)).toBe(at(5) + 1);
		expect(nextReadAt(known, burst, RULES, at(2), LEAD_MS)).toBe(at(2));
	});

	it('reads at the longest wait for a person who keeps typing, with the chain start the last read showed', () => {
		const known = messages([{ id: 'm0', at: 0 }]);
		// m0 was settled by an earlier read; the chain still starts there, so m4 (at 8) is cut at 10.
		const typing = held(
			Array.from({ length: 4 }, (_, index) => ({ id: `m${index + 1}`, at: (index + 1) * 2 })),
		);
		const readAt = nextReadAt(known, typing, RULES, at(8), LEAD_MS);
		expect(readAt).toBe(at(HOLD_S + 2) - LEAD_MS);
		expect(nextReadAt([], typing, RULES, at(8), LEAD_MS)).toBe(at(HOLD_S + 2) - LEAD_MS);
		// The earlier ones settled by a read, m4 alone held: the read still places the cut.
		const read = messages(
			Array.from({ length: 4 }, (_, index) => ({ id: `m${index}`, at: index * 2 })),
		);
		const last = held([{ id: 'm4', at: 8 }]);
		expect(nextReadAt(read, last, RULES, at(8), LEAD_MS)).toBe(at(10));
		expect(nextReadAt([], last, RULES, at(8), LEAD_MS)).toBe(at(11) + 1);
	});
});

describe('settleByRead', () => {
	it('settles a burst: the earlier messages as carried, the last as its run', () => {
		const burst = messages([
			{ id: 'a', at: 0 },
			{ id: 'b', at: 1 },
			{ id: 'c', at: 2 },
		]);
		const outcomes = settleByRead(
			{ timeline: burst, asOf: at(6), complete: true },
			asHeld(burst),
			RULES,
		);
		expect(kinds(outcomes)).toEqual({ a: 'none', b: 'none', c: 'run' });
	});

	it("runs a message on its own when the account's message came between it and the next", () => {
		const timeline = messages([
			{ id: 'a', at: 0 },
			{ id: 'me', at: 1, me: true },
			{ id: 'b', at: 2 },
		]);
		const heldOnes = timeline.filter((message) => !message.fromMe);
		const outcomes = settleByRead(
			{ timeline, asOf: at(2.5), complete: true },
			asHeld(heldOnes),
			RULES,
		);
		expect(kinds(outcomes)).toEqual({ a: 'run', b: 'keep' });
	});

	it('does not let a held message written after the read carry an earlier one', () => {
		const read = messages([{ id: 'a', at: 0 }]);
		const heldOnes = messages([
			{ id: 'a', at: 0 },
			{ id: 'b', at: 2 },
		]);
		// The account may have written between a and b after the read's snapshot.
		const outcomes = settleByRead(
			{ timeline: read, asOf: at(1.5), complete: true },
			asHeld(heldOnes),
			RULES,
		);
		expect(kinds(outcomes)).toEqual({ a: 'keep', b: 'keep' });
	});

	it('counts a held message written before the read even if the read does not show it', () => {
		const read = messages([{ id: 'b', at: 1 }]);
		const heldOnes = messages([
			{ id: 'a', at: 0 },
			{ id: 'b', at: 1 },
		]);
		const outcomes = settleByRead(
			{ timeline: read, asOf: at(5), complete: true },
			asHeld(heldOnes),
			RULES,
		);
		expect(kinds(outcomes)).toEqual({ a: 'none', b: 'run' });
	});
});

describe('settleByRead for a message the service saved late', () => {
	const burst = messages([
		{ id: 'one', at: 0 },
		{ id: 'two', at: 1 },
		{ id: 'three', at: 2 },
	]);
	const two = burst.filter((message) => message.id === 'two');
	const read = { timeline: burst, asOf: at(60), complete: true };

	it('runs its burst again with it when its event was queued after the burst closed', () => {
		const outcome = settleByRead(read, asHeld(two, at(30)), RULES).get('two');
		expect(outcome?.kind).toBe('run');
		const verdict = outcome?.kind === 'run' ? outcome.verdict : undefined;
		expect(verdict?.messages.map((message) => message.id)).toEqual(['one', 'two', 'three']);
	});

	it('is carried as usual when its event was queued before the burst closed (a retried delivery)', () => {
		expect(settleByRead(read, asHeld(two, at(1)), RULES).get('two')?.kind).toBe('none');
		expect(settleByRead(read, asHeld(two), RULES).get('two')?.kind).toBe('none');
	});
});

describe('settleByRead for a burst that arrives late as a whole', () => {
	const runsOf = (outcomes: ReturnType<typeof settleByRead>) =>
		[...outcomes].flatMap(([id, outcome]) =>
			outcome.kind === 'run' ? [[id, outcome.verdict.messages.map((message) => message.id)]] : [],
		);

	it('starts one run for three messages written 30 s before their events were queued', () => {
		const burst = messages([
			{ id: 'i1', at: 0 },
			{ id: 'i2', at: 0.3 },
			{ id: 'i3', at: 0.6 },
		]);
		// Saved late, the burst stays open a quiet window past the last of them queued: 33 s. Its
		// last message holds the run back, carrying the others.
		const early = { timeline: burst, asOf: at(32.5), complete: true };
		expect(kinds(settleByRead(early, asHeld(burst, at(30)), RULES))).toEqual({
			i1: 'none',
			i2: 'none',
			i3: 'keep',
		});
		const read = { timeline: burst, asOf: at(33.5), complete: true };
		expect(runsOf(settleByRead(read, asHeld(burst, at(30)), RULES))).toEqual([
			['i3', ['i1', 'i2', 'i3']],
		]);
		// Only the first held yet: the others count as saved when a read first showed them (an
		// upload saves one after another, so the first one's lag says nothing of theirs): this read,
		// so the burst stays open. Shown by a read at 30.2 s, they close it at 33.2 s; then the
		// first starts the run for the whole burst, and the read starts no other.
		const onlyFirst = asHeld(burst.slice(0, 1), at(30));
		expect(kinds(settleByRead(read, onlyFirst, RULES))).toEqual({ i1: 'keep' });
		const shown = burst.map((message) => ({ ...message, savedBy: at(30.2) }));
		const first = settleByRead(
			{ timeline: shown, asOf: at(33.3), complete: true },
			onlyFirst,
			RULES,
		);
		expect(runsOf(first)).toEqual([['i1', ['i1', 'i2', 'i3']]]);
		const ran = new Map([['i1,i2,i3', 'i1']]);
		expect(kinds(settleByRead(read, asHeld(burst.slice(1), at(30)), RULES, ran))).toEqual({
			i2: 'none',
			i3: 'none',
		});
		// The first one's delivery sent again (its run did not start, say): it runs again, the claim tells a copy.
		expect(runsOf(settleByRead(read, asHeld(burst, at(30)), RULES, ran))).toEqual([
			['i1', ['i1', 'i2', 'i3']],
		]);
	});

	it('starts one run for a two-message burst whose events the service queued 7 s late', () => {
		const burst = messages([
			{ id: 'a', at: 0 },
			{ id: 'b', at: 0.3 },
		]);
		const read = { timeline: burst, asOf: at(10.5), complete: true };
		const lagging = burst.map((message) => ({
			message,
			deadline: message.at + 7000 + HOLD_S * 1000,
			queuedAt: message.at + 7000,
		}));
		expect(runsOf(settleByRead(read, lagging, RULES))).toEqual([['b', ['a', 'b']]]);
	});
});

describe('settleByRead for a phone whose clock runs behind', () => {
	/** Typed 1 s apart on a phone 60 s behind, each queued as it was typed. */
	const typedLive = (count: number) =>
		messages(Array.from({ length: count }, (_, index) => ({ id: `p${index + 1}`, at: index }))).map(
			(message) => ({
				message,
				deadline: message.at + 60_000 + HOLD_S * 1000,
				queuedAt: message.at + 60_000,
			}),
		);
	const timelineOf = (live: HeldMessage[]) => live.map((entry) => entry.message);

	it('keeps the burst open a quiet window after its last message was queued, never longer', () => {
		const live = typedLive(3);
		const open = { timeline: timelineOf(live), asOf: at(64.9), complete: true };
		expect(kinds(settleByRead(open, live, RULES))).toEqual({ p1: 'none', p2: 'none', p3: 'keep' });
		const closed = { ...open, asOf: at(65.1) };
		expect(kinds(settleByRead(closed, live, RULES))).toEqual({ p1: 'none', p2: 'none', p3: 'run' });
	});

	it('reads before the deadline of a message a later held one carries, though the burst is still open then', () => {
		const live = typedLive(7);
		expect(nextReadAt([], live, RULES, at(66.5), LEAD_MS)).toBe(live[0].deadline - LEAD_MS);
	});
});

describe('burstStillOpen', () => {
	it('is true only while the burst may still grow: a quiet window longer than the hold', () => {
		const long: BurstRules = { quietMs: 10_000, longestMs: 30_000 };
		const one = held([{ id: 'a', at: 0 }]);
		expect(burstStillOpen([], one, 'a', long, at(HOLD_S))).toBe(true);
		expect(burstStillOpen([], one, 'a', RULES, at(HOLD_S))).toBe(false);
		// Carried by a later held message: not open, the read must settle it.
		const two = held([
			{ id: 'a', at: 0 },
			{ id: 'b', at: 5 },
		]);
		expect(burstStillOpen([], two, 'a', long, at(HOLD_S))).toBe(false);
	});
});

/**
 * Review of issue 43e (branch review-43de): `firstOfUpload` asks for a read at once for an
 * upload's first delivery until a read shows its message. A read that cannot show it (a group chat
 * where more than MAX_PAGES pages of messages are stamped after it: a phone back from a flight
 * uploads what it wrote hours ago) leaves the message kept, its upload window open, and the next
 * read due at once again: the desk (conversationDesk.ts run()) reads back to back, four pages
 * each, until the window closes. Returns how many reads the desk's loop makes.
 */
function uploadReads(shown: boolean): number {
	// Bob's phone uploads, at 7200 s, a message he wrote offline at 0 s; the group wrote 200
	// messages since, which fill every page a read follows.
	const [bob] = messages([{ id: 'b1', at: 0, from: 'bob' }]);
	const newer = messages(
		Array.from({ length: MAX_PAGES * 50 }, (_, i) => ({ id: `g${i}`, at: 3600 + i * 10 })),
	);
	const timeline = shown ? [bob, ...newer] : newer;
	const queuedAt = at(7200);
	const bobHeld = [{ message: bob, deadline: queuedAt + 8500, queuedAt }];
	let asOf = at(7200.1);
	let reads = 0;
	// What the desk does: plan, read when due, settle what the read settles.
	while (asOf < queuedAt + RULES.quietMs + 1000) {
		const read = { timeline, asOf, complete: true };
		if (settleByRead(read, bobHeld, RULES).get('b1')?.kind === 'run') break;
		const readAt = nextReadAt(timeline, bobHeld, RULES, asOf, 1050, asOf);
		if (readAt > asOf) {
			asOf = readAt;
			continue;
		}
		reads++;
		asOf += 100; // a read of four pages, paced: about 100 ms
	}
	return reads;
}

describe('review 43de: firstOfUpload', () => {
	it('control: an upload whose message is on the pages read: two reads at most', () => {
		expect(uploadReads(true)).toBeLessThanOrEqual(2);
	});

	// Holds since a read sent after the event was queued ends firstOfUpload's reads at once.
	it("R43de-2: a read that cannot show an upload's first message (beyond MAX_PAGES pages of a busy group) is due again at once, read after read, until its upload window closes", () => {
		// One read to find the window open, one when it closes: more is a storm (30 today).
		expect(uploadReads(false)).toBeLessThanOrEqual(2);
	});
});
