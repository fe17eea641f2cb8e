import type { BurstVerdict } from '../../shared/conversation/bursts';
import type { ConversationRead, ConversationReader } from '../../shared/conversation/reader';
import type { TimelineMessage } from '../../shared/conversation/timeline';
import type { HeldMessage } from '../../shared/conversation/heldPlan';
import type { DeliveryReply } from '../receive/deliveryReply';
import type { ServiceClock } from '../receive/serviceClock';

/* What a held delivery is, and what settles it (conversationDesk.ts). */

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

export type Entry = HeldDelivery & {
	settle: (outcome: Settlement) => void;
	/** Handed back at its deadline, its burst still open: held on until it closes. */
	handedBack?: boolean;
};

/** A held delivery as the conversation rules take it: its deadline on the service's clock. */
export const heldMessageOf = (entry: HeldDelivery, clock: ServiceClock): HeldMessage => ({
	message: entry.message,
	deadline: clock.at(entry.deadline),
	queuedAt: entry.queuedAt,
});
