import { sleep } from 'n8n-workflow';

import type { BurstRules, BurstVerdict } from '../../shared/conversation/bursts';
import {
	burstStillOpen,
	nextReadAt,
	identityOf,
	settleByRead,
	type HeldMessage,
	type HeldOutcome,
} from '../../shared/conversation/heldPlan';
import { carriedByHeldIn, carriedRun } from '../../shared/conversation/carriedPlan';
import {
	OPEN_READ_MS,
	READ_LEAD_MS,
	SAVE_SLACK_MS,
	TIMER_SLACK_MS,
} from '../../shared/conversation/deliveryTiming';
import { deadlineIn, monotonicNow } from '../../shared/monotonic';
import { isPassing } from '../../shared/client/errorRules';
import { MAX_PAGES, reasonOf } from '../../shared/conversation/reader';
import { extentOf, ranSince, recentRead, remember, savedBy, type KnownRead } from './recentReads';
import { CarriedDeliveries } from './carriedDeliveries';
import { heldMessageOf, type Entry, type Settlement } from './settlement';
import type { ServiceClock } from '../receive/serviceClock';

/*
 * One conversation's held deliveries in this process (heldDeliveries.ts): one loop plans the next
 * read from what is held and the last read, reads, and settles every held message the read
 * settles; each delivery's deadline answers it or hands it back. A carried one (carriedDeliveries.ts)
 * with no run holding it recorded by its deadline starts its burst's run itself; the run claim
 * (runClaim.ts) narrows a run whose messages another run holds to nothing.
 */

export class ConversationDesk {
	readonly held = new Map<string, Entry>();
	private readonly carried = new CarriedDeliveries<Entry>(() => this.idleIfDone());
	private looping = false;
	/** Why the last read failed, while the service stays busy or unreachable. */
	private failure?: string;
	/** The smallest lag between a settled message's timestamp and its queue time: the phone's clock. */
	private settledLag?: number;
	private wake?: () => void;

	constructor(
		private readonly key: string,
		private readonly conversationId: string,
		private readonly rules: BurstRules,
		private readonly clock: ServiceClock,
		/** Called the moment nothing is held any more, before any other delivery can join. */
		private readonly onIdle: () => void,
	) {}

	/** Waits `ms`, or less when a delivery joins. */
	private async pause(ms: number): Promise<void> {
		await Promise.race([sleep(ms), new Promise<void>((resolve) => (this.wake = resolve))]);
		this.wake = undefined;
	}

	join(id: string, entry: Entry): void {
		this.held.set(id, entry);
		this.expireAt(id, entry.deadline);
		this.wake?.();
		if (this.looping) return;
		this.looping = true;
		void Promise.resolve().then(async () => await this.run());
	}

	/** n8n's sleep cannot be cancelled: a settled delivery's expiry finds nothing to do. */
	private expireAt(id: string, deadline: number): void {
		void sleep(Math.max(0, deadline - monotonicNow())).then(() => this.expire(id));
	}

	private heldMessages(entries: Iterable<Entry> = this.held.values()): HeldMessage[] {
		return [...entries].map((entry) => heldMessageOf(entry, this.clock));
	}

	private async run(): Promise<void> {
		while (this.held.size > 0) {
			// What a read the process already made settles: a message written before it, carried or last
			// in it (a delivery the service sent again after the read, say).
			const known = recentRead(this.key);
			if (known && this.apply(this.settleBy(known), known) > 0) continue;
			// The read's own `asOf` is no earlier: a read never comes back undecided and due again.
			const asOf = this.clock.now() - SAVE_SLACK_MS;
			// `asOf` runs SAVE_SLACK_MS behind the service's clock: the lead before a deadline counts it too.
			const lead = READ_LEAD_MS + SAVE_SLACK_MS;
			const readAt = nextReadAt(
				known?.read.timeline ?? [],
				this.heldMessages(),
				this.rules,
				asOf,
				lead,
				known?.asOf,
				this.settledLag,
			);
			if (readAt > asOf) await this.pause(readAt - asOf + TIMER_SLACK_MS);
			else await this.read();
		}
		this.looping = false;
		this.idleIfDone();
	}

	/** Nothing held, carried or read any more: the desk goes, before any other delivery can join. */
	private idleIfDone(): void {
		if (!this.looping && this.held.size === 0 && this.carried.size === 0) this.onIdle();
	}

	/** One read (with older pages while a chain reaches back), then every held message it settles. */
	private async read(): Promise<void> {
		const entries = [...this.held.values()];
		const reader = entries.reduce((a, b) => (b.deadline >= a.deadline ? b : a)).reader;
		const until = Math.max(...entries.map((entry) => entry.deadline));
		try {
			const read = await reader.read(this.conversationId, until);
			// It vouches for the time its answering call was sent: failed attempts before it showed
			// nothing, so a message saved meanwhile is not taken as saved before them (S6-4).
			const asOf = this.clock.at(read.sentAt) - SAVE_SLACK_MS;
			const before = recentRead(this.key);
			for (;;) {
				savedBy(read, asOf, before);
				const here = new Set([...this.held.keys(), ...this.carried.ids()]);
				const known = {
					read,
					asOf,
					complete: read.cursor === undefined || read.reads >= MAX_PAGES,
					ran: ranSince(read, before, here),
				};
				const outcomes = this.settleBy(known);
				if (![...outcomes.values()].some((outcome) => outcome.kind === 'needOlder')) {
					this.failure = undefined;
					remember(this.key, known);
					this.apply(outcomes, known);
					return;
				}
				await reader.older(read, until);
			}
		} catch (error) {
			const reason = reasonOf(error);
			// A read that times out on the short budget left by an earlier failure keeps that reason.
			this.failure = isPassing(error) ? (this.failure ?? reason) : reason;
			if (!isPassing(error)) {
				for (const id of [...this.held.keys()]) this.settle(id, { kind: 'failed', reason });
				return;
			}
			// A busy service: the deadlines decide what goes back to it; a joining delivery reads again.
			const deadlines = [...this.held.values()].map((entry) => entry.deadline);
			if (deadlines.length > 0)
				await this.pause(Math.max(TIMER_SLACK_MS, Math.min(...deadlines) - monotonicNow()));
		}
	}

	private settleBy(known: KnownRead): Map<string, HeldOutcome> {
		return settleByRead(
			extentOf(known),
			this.heldMessages(),
			this.rules,
			known.ran,
			this.settledLag,
		);
	}

	/**
	 * Settles the outcomes of `known` (the bursts it runs, it runs once); returns how many. A message
	 * a later one carries is carried once a run holding it started here or the read shows its burst
	 * closed; until then it stays held, for a read before its deadline.
	 */
	private apply(outcomes: Map<string, HeldOutcome>, known: KnownRead): number {
		const runs = [...outcomes].filter(([, outcome]) => outcome.kind === 'run');
		for (const [id, outcome] of runs)
			if (outcome.kind === 'run') this.start(id, outcome.verdict, known);
		const carried = [...outcomes].filter(
			([id, outcome]) => outcome.kind === 'none' && this.mayCarry(id, known),
		);
		for (const [id] of carried) this.carry(id);
		return runs.length + carried.length;
	}

	/** Handed back, held by a run started here, or the read shows the burst ending in a message held here (its run starts here) or closed. */
	private mayCarry(id: string, known: KnownRead): boolean {
		return (
			this.held.get(id)?.handedBack === true ||
			this.carried.holds(id) ||
			carriedByHeldIn(extentOf(known), this.heldMessages(), id, this.rules) ||
			this.carriedRun(id, known) !== undefined
		);
	}

	/** The burst of `id` as `known` shows it closed (carriedRun), noted for later reads (S8-2b, R82b-3). */
	private carriedRun(id: string, known: KnownRead) {
		const messages = this.heldMessages([...this.held.values(), ...this.carried.values()]);
		const verdict = carriedRun(extentOf(known), messages, id, this.rules, known.ran);
		if (verdict && !known.ran.has(identityOf(verdict)))
			known.ran.set(identityOf(verdict), undefined);
		return verdict;
	}

	/** `id`'s delivery starts the run of `verdict`; the messages it carries wait for n8n to record it. */
	private start(id: string, verdict: Extract<BurstVerdict, { kind: 'last' }>, known: KnownRead) {
		const entry = this.held.get(id) ?? this.carried.get(id);
		if (!entry) return;
		known.ran.set(identityOf(verdict), id);
		const ids = new Set(verdict.messages.map((message) => message.id));
		this.carried.started(ids, entry.reply.recorded());
		this.settle(id, { kind: 'run', verdict, read: known.read });
		// The held messages it holds are carried by it now: the loop settles them from the kept read.
		this.wake?.();
	}

	/** A read shows `id` carried by a later message of its burst: answered once a run holding it is recorded. */
	private carry(id: string): void {
		const entry = this.held.get(id);
		if (!entry || entry.handedBack) return this.settle(id, { kind: 'none' }); // went back: the retry settles it
		this.held.delete(id);
		this.noteLag(entry);
		this.carried.add(id, entry);
	}

	/**
	 * A carried delivery's deadline, no run holding it recorded (its burst's last delivery lost, held
	 * by another process, or its run not recorded): it starts the run itself, as the last read shows
	 * the burst; with the burst still open there, it goes back to the service.
	 */
	private expireCarried(id: string): void {
		if (!this.carried.get(id)) return;
		const known = recentRead(this.key);
		const verdict = known && this.carriedRun(id, known);
		if (known && verdict) this.start(id, verdict, known);
		else this.carried.settle(id, { kind: 'retry' });
	}

	/**
	 * A delivery's deadline: settled already; handed back and kept while its burst is still open;
	 * run on its own at the service's third attempt or later; else handed back (a handed-back one
	 * that is still not settled is left to the service's retry).
	 */
	private expire(id: string): void {
		const entry = this.held.get(id);
		if (!entry) return this.expireCarried(id);
		const known = recentRead(this.key);
		const timeline = known?.read.timeline ?? [];
		const now = this.clock.now();
		if (
			!entry.handedBack &&
			burstStillOpen(timeline, this.heldMessages(), id, this.rules, now, known?.asOf)
		) {
			entry.reply.handBack();
			entry.handedBack = true;
			entry.deadline = deadlineIn(this.rules.longestMs + OPEN_READ_MS);
			this.expireAt(id, entry.deadline);
			return;
		}
		if (!entry.handedBack && entry.givesUp) {
			// Runs on its own, its delivery answered by n8n once the run is recorded, as every run's.
			this.settle(id, {
				kind: 'failed',
				reason: `${this.failure ?? 'the service was busy'} (still not read at the service's third attempt)`,
			});
			return;
		}
		this.settle(id, { kind: 'retry' });
		this.wake?.();
	}

	/**
	 * Whether a delivery of `id` may be held: none is, or the held one went back already (the
	 * service's retry takes its place); else it is a copy, answered at once.
	 */
	mayHold(id: string): boolean {
		const entry = this.held.get(id) ?? this.carried.get(id);
		if (!entry?.handedBack) return entry === undefined;
		this.settle(id, { kind: 'retry' });
		return true;
	}

	/** Hands every held delivery back to the service; none starts a run. Returns how many. */
	releaseAll(): number {
		const ids = [...this.held.keys(), ...this.carried.ids()];
		for (const id of ids) this.settle(id, { kind: 'retry' });
		this.wake?.();
		return ids.length;
	}

	/** Settles a held delivery, or a carried one that starts its burst's run itself. */
	private settle(id: string, outcome: Settlement): void {
		const entry = this.held.get(id);
		if (!entry) return this.carried.settle(id, outcome);
		this.held.delete(id);
		this.noteLag(entry);
		entry.settle(outcome);
	}

	private noteLag(entry: Entry): void {
		if (entry.queuedAt !== undefined)
			this.settledLag = Math.min(this.settledLag ?? Infinity, entry.queuedAt - entry.message.at);
	}
}
