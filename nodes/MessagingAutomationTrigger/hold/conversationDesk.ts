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
import type { TimelineMessage } from '../../shared/conversation/timeline';
import {
	OPEN_READ_MS,
	READ_LEAD_MS,
	SAVE_SLACK_MS,
	TIMER_SLACK_MS,
} from '../../shared/conversation/deliveryTiming';
import { MessagingApiError } from '../../shared/client/errors';
import { deadlineIn, monotonicNow } from '../../shared/monotonic';
import { retryRuleOf } from '../../shared/client/errorRules';
import {
	MAX_PAGES,
	reasonOf,
	type ConversationRead,
	type ConversationReader,
} from '../../shared/conversation/reader';
import { recentRead, remember, type KnownRead } from './recentReads';
import type { DeliveryReply } from '../receive/deliveryReply';
import type { ServiceClock } from '../receive/serviceClock';

/*
 * One conversation's held deliveries in this process (heldDeliveries.ts): one loop plans the next
 * read from what is held and the last read, reads, and settles every held message the read
 * settles; each delivery's deadline answers it or hands it back.
 */

/** What settles a held delivery. */
export type Settlement =
	| { kind: 'run'; verdict: Extract<BurstVerdict, { kind: 'last' }>; read: ConversationRead }
	| { kind: 'none' }
	/** Not settled by its deadline: answered 503, the service sends it again. */
	| { kind: 'retry' }
	| { kind: 'failed'; reason: string };

export interface HeldDelivery {
	message: TimelineMessage;
	/** Local (monotonic) time by which the delivery must be answered. */
	deadline: number;
	/** Service time the service queued the event (`created_at`), when it said. */
	queuedAt?: number;
	/** The service's third attempt or later (deliveryTiming.ts): at its deadline it runs on its own. */
	givesUp: boolean;
	/** The delivery's one answer: 200 once settled, or 503 to be sent again. */
	reply: DeliveryReply;
	/** Reads this delivery's conversation with its own node's credential. */
	reader: ConversationReader;
}

type Entry = HeldDelivery & {
	settle: (outcome: Settlement) => void;
	/** Handed back at its deadline, its burst still open: held on until it closes. */
	handedBack?: boolean;
};

/** Errors a later read may not meet: a busy or unreachable service, not a refused key or scope. */
function isPassing(error: unknown): boolean {
	return error instanceof MessagingApiError && retryRuleOf(error) !== 'never';
}

/**
 * Marks each message of `read` saved by the first read that showed it: the kept read `before`, if
 * it did, else this one (`asOf`). A late upload's burst closes a quiet window after the last of
 * its messages was saved (uploadWindow.ts), which only a read made that long after shows.
 */
function savedBy(read: ConversationRead, asOf: number, before: KnownRead | undefined): void {
	const shown = new Map(
		(before?.read.timeline ?? []).map((entry) => [entry.id, entry.savedBy ?? before?.asOf]),
	);
	for (const entry of read.timeline) entry.savedBy ??= shown.get(entry.id) ?? asOf;
}

export class ConversationDesk {
	readonly held = new Map<string, Entry>();
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

	/** The last read's messages (recentReads.ts keeps it): with the held ones, when the next read is due. */
	private knownTimeline(): readonly TimelineMessage[] {
		return recentRead(this.key)?.read.timeline ?? [];
	}

	/** Waits `ms`, or less when a delivery joins. */
	private async pause(ms: number): Promise<void> {
		await Promise.race([sleep(ms), new Promise<void>((resolve) => (this.wake = resolve))]);
		this.wake = undefined;
	}

	join(id: string, entry: Entry): void {
		this.held.set(id, entry);
		this.expireAt(id, entry.deadline);
		this.wake?.();
	}

	/** n8n's sleep cannot be cancelled: a settled delivery's expiry finds nothing to do. */
	private expireAt(id: string, deadline: number): void {
		void sleep(Math.max(0, deadline - monotonicNow())).then(() => this.expire(id));
	}

	private heldMessages(): HeldMessage[] {
		return [...this.held.values()].map((entry) => ({
			message: entry.message,
			deadline: this.clock.at(entry.deadline),
			queuedAt: entry.queuedAt,
		}));
	}

	async run(): Promise<void> {
		while (this.held.size > 0) {
			// What a read the process already made settles: a message written before it, carried or last
			// in it (a delivery the service sent again after the read, say).
			const known = recentRead(this.key);
			if (known && this.apply(this.settleBy(known), known) > 0) continue;
			// One service time for the plan and the read, so a read never comes back undecided and due again.
			const asOf = this.clock.now() - SAVE_SLACK_MS;
			// `asOf` runs SAVE_SLACK_MS behind the service's clock: the lead before a deadline counts it too.
			const lead = READ_LEAD_MS + SAVE_SLACK_MS;
			const readAt = nextReadAt(
				this.knownTimeline(),
				this.heldMessages(),
				this.rules,
				asOf,
				lead,
				known?.asOf,
				this.settledLag,
			);
			if (readAt > asOf) await this.pause(readAt - asOf + TIMER_SLACK_MS);
			else await this.read(asOf);
		}
		this.onIdle();
	}

	/** One read (with older pages while a chain reaches back), then every held message it settles. */
	private async read(asOf: number): Promise<void> {
		const entries = [...this.held.values()];
		const reader = entries.reduce((a, b) => (b.deadline >= a.deadline ? b : a)).reader;
		const until = Math.max(...entries.map((entry) => entry.deadline));
		try {
			const read = await reader.read(this.conversationId, until);
			const before = recentRead(this.key);
			for (;;) {
				savedBy(read, asOf, before);
				const known = {
					read,
					asOf,
					complete: read.cursor === undefined || read.reads >= MAX_PAGES,
					ran: new Map<string, string>(),
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
		const extent = { timeline: known.read.timeline, asOf: known.asOf, complete: known.complete };
		return settleByRead(extent, this.heldMessages(), this.rules, known.ran, this.settledLag);
	}

	/** Settles the outcomes of `known` (the bursts it runs, it runs once); returns how many. */
	private apply(outcomes: Map<string, HeldOutcome>, known: KnownRead): number {
		let settled = 0;
		for (const [id, outcome] of outcomes) {
			if (outcome.kind === 'run') {
				known.ran.set(identityOf(outcome.verdict), id);
				this.settle(id, { kind: 'run', verdict: outcome.verdict, read: known.read });
			} else if (outcome.kind === 'none') this.settle(id, outcome);
			else continue;
			settled++;
		}
		return settled;
	}

	/**
	 * A delivery's deadline: settled already; handed back and kept while its burst is still open;
	 * run on its own at the service's third attempt or later; else handed back (a
	 * handed-back one that is still not settled is left to the service's retry).
	 */
	private expire(id: string): void {
		const entry = this.held.get(id);
		if (!entry) return;
		const now = this.clock.now();
		if (
			!entry.handedBack &&
			burstStillOpen(
				this.knownTimeline(),
				this.heldMessages(),
				id,
				this.rules,
				now,
				recentRead(this.key)?.asOf,
			)
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
		const entry = this.held.get(id);
		if (!entry?.handedBack) return entry === undefined;
		this.settle(id, { kind: 'retry' });
		return true;
	}

	/** Hands every held delivery back to the service; none starts a run. Returns how many. */
	releaseAll(): number {
		const ids = [...this.held.keys()];
		for (const id of ids) this.settle(id, { kind: 'retry' });
		this.wake?.();
		return ids.length;
	}

	private settle(id: string, outcome: Settlement): void {
		const entry = this.held.get(id);
		if (!entry) return;
		this.held.delete(id);
		if (entry.queuedAt !== undefined)
			this.settledLag = Math.min(this.settledLag ?? Infinity, entry.queuedAt - entry.message.at);
		entry.settle(outcome);
	}
}
