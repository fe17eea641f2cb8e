import { sleep } from 'n8n-workflow';

import { burstOf, type BurstRules, type BurstVerdict } from '../shared/conversation/bursts';
import { planHeld } from '../shared/conversation/heldPlan';
import { mergeTimelines, type TimelineMessage } from '../shared/conversation/timeline';
import {
	MAX_PAGES,
	reasonOf,
	type ConversationRead,
	type ConversationReader,
} from './conversationReader';

/*
 * Grouped deliveries this process holds, per conversation. A delivery stays unanswered until its
 * outcome is settled (its run starts, or it is known not to be the last of its burst), so a stop
 * or a crash of n8n meanwhile leaves it to the service's retry instead of losing the burst. One
 * read of the conversation settles every held message it can; the held messages alone say when
 * that read is due, and which deliveries a later held message of the same burst carries.
 *
 * This memory only saves reads and answers sooner: every decision comes from the read, the one
 * truth every webhook process shares, so a message held elsewhere is never lost or run twice.
 */

/** What settles a held delivery. */
export type Settlement =
	| { kind: 'run'; verdict: Extract<BurstVerdict, { kind: 'last' }>; read: ConversationRead }
	| { kind: 'none' }
	| { kind: 'failed'; reason: string };

export interface HeldDelivery {
	message: TimelineMessage;
	/** Local time the delivery arrived. */
	arrivedAt: number;
	/** Answers the delivery 200; later calls do nothing. */
	answer: () => void;
	/** Reads this delivery's conversation with its own node's credential. */
	reader: ConversationReader;
}

/** Messages written up to this long before a read starts may not be saved yet: the read vouches for no later time. */
const SAVE_SLACK_MS = 250;
/** A due read waits this much past its time: timers may fire a little early. */
const TIMER_SLACK_MS = 50;

class ConversationDesk {
	readonly held = new Map<string, HeldDelivery & { settle: (outcome: Settlement) => void }>();
	/** Local time minus service time, as small as any held delivery showed: service time is never overestimated. */
	offset = Number.POSITIVE_INFINITY;
	private wake?: () => void;

	constructor(
		private readonly conversationId: string,
		private readonly rules: BurstRules,
		/** Called the moment nothing is held any more, before any other delivery can join. */
		private readonly onIdle: () => void,
	) {}

	serviceNow(): number {
		return Date.now() - this.offset;
	}

	/** Waits `ms`, or less when a delivery joins. */
	async pause(ms: number): Promise<void> {
		await Promise.race([sleep(ms), new Promise<void>((resolve) => (this.wake = resolve))]);
		this.wake = undefined;
	}

	joined(): void {
		this.wake?.();
	}

	async run(): Promise<void> {
		try {
			while (this.held.size > 0) {
				// One service time for the plan and the read, so a read never comes back undecided and due again.
				const asOf = this.serviceNow() - SAVE_SLACK_MS;
				const plan = planHeld(
					[...this.held.values()].map((entry) => entry.message),
					this.rules,
					asOf,
				);
				for (const id of plan.handedOver) this.held.get(id)?.answer();
				if (plan.readAt > asOf) await this.pause(plan.readAt - asOf + TIMER_SLACK_MS);
				else await this.settleByRead(asOf);
			}
		} catch (error) {
			this.settleAll(error);
		}
		this.onIdle();
	}

	private newest(): HeldDelivery {
		return [...this.held.values()].reduce((a, b) => (b.arrivedAt >= a.arrivedAt ? b : a));
	}

	/**
	 * One read (with older pages while a chain reaches back), then every held message it can settle.
	 * A read that fails for good throws: `run` then settles every held message as failed.
	 */
	private async settleByRead(asOf: number): Promise<void> {
		const reader = this.newest().reader;
		const read = await reader.read(this.conversationId);
		for (;;) {
			// Delivered messages count even if the read does not show them yet.
			read.timeline = mergeTimelines(
				read.timeline,
				[...this.held.values()].map((entry) => entry.message),
			);
			const complete = read.cursor === undefined || read.reads >= MAX_PAGES;
			const verdicts = [...this.held.keys()].map((id) => ({
				id,
				verdict: burstOf(read.timeline, id, this.rules, { complete, asOf }),
			}));
			if (!verdicts.some(({ verdict }) => verdict.kind === 'needOlder')) {
				for (const { id, verdict } of verdicts) this.settleOne(id, verdict, read);
				return;
			}
			await reader.older(read);
		}
	}

	/** The service stayed unreadable: each held message runs on its own, saying why. */
	private settleAll(error: unknown): void {
		const reason = reasonOf(error);
		for (const id of [...this.held.keys()]) this.settle(id, { kind: 'failed', reason });
	}

	private settleOne(id: string, verdict: BurstVerdict, read: ConversationRead): void {
		if (verdict.kind === 'last') this.settle(id, { kind: 'run', verdict, read });
		else if (verdict.kind === 'notLast') this.settle(id, { kind: 'none' });
	}

	private settle(id: string, outcome: Settlement): void {
		const entry = this.held.get(id);
		if (!entry) return;
		this.held.delete(id);
		entry.settle(outcome);
	}
}

const desks = new Map<string, ConversationDesk>();

/**
 * Holds `delivery` with the others of its conversation (`scope`: one trigger at one URL) until a
 * read settles it. A second delivery of a message already held (another event id for the same
 * message) is answered at once and settles as nothing.
 */
export async function holdDelivery(
	scope: string,
	conversationId: string,
	rules: BurstRules,
	delivery: HeldDelivery,
): Promise<Settlement> {
	const key = `${scope}\n${conversationId}`;
	let desk = desks.get(key);
	if (desk?.held.has(delivery.message.id)) {
		delivery.answer();
		return { kind: 'none' };
	}
	if (!desk) {
		const created = new ConversationDesk(conversationId, rules, () => desks.delete(key));
		desks.set(key, created);
		desk = created;
		// Started once this delivery is held (below, synchronously): the loop never sees an empty desk.
		void Promise.resolve().then(async () => await created.run());
	}
	const joining = desk;
	joining.offset = Math.min(joining.offset, delivery.arrivedAt - delivery.message.at);
	const settled = new Promise<Settlement>((settle) =>
		joining.held.set(delivery.message.id, { ...delivery, settle }),
	);
	joining.joined();
	return await settled;
}
