import type { BurstRules } from '../../shared/conversation/bursts';
import type { ServiceClock } from '../receive/serviceClock';
import { ConversationDesk } from './conversationDesk';
import type { HeldDelivery, Settlement } from './settlement';

/*
 * Grouped deliveries this process holds, per conversation. A delivery is answered 2xx only once
 * a recorded run holds its message (its own run, answered by n8n once recorded; or, carried by a
 * later message of its burst, that message's run: conversationDesk.ts), so a stop or a crash of
 * n8n meanwhile leaves it to the service's retry. One
 * read settles every held message it can; what the process holds and its last read only say when
 * that read is due. A delivery the reads could not settle by its deadline goes back to the service
 * (503) to be sent again. One whose burst is still open then (a quiet window longer than the hold)
 * goes back too, and stays held: its burst runs when it closes, and the service's retry then
 * passes nothing on. Nothing is answered 200 while a hand-back may follow, so deactivation, a
 * save or a stop meanwhile leaves the burst to the retry.
 */

const desks = new Map<string, ConversationDesk>();

/**
 * Holds `delivery` with the others of its conversation (`scope`: one trigger at one URL; desks of
 * other grouping rules are apart, so a re-activation with a new quiet window is never judged by
 * the old one) until a read settles it. A second delivery of a message already held (another
 * event id for the same message) is answered at once and settles as nothing, unless the held one
 * was handed back: the service's retry of it takes its place.
 */
export async function holdDelivery(
	scope: string,
	conversationId: string,
	rules: BurstRules,
	clock: ServiceClock,
	delivery: HeldDelivery,
): Promise<Settlement> {
	const key = `${scope}\n${rules.quietMs}/${rules.longestMs}\n${conversationId}`;
	let desk = desks.get(key);
	if (desk && !desk.mayHold(delivery.message.id)) {
		delivery.reply.received();
		return { kind: 'none' };
	}
	if (!desk) {
		const created = new ConversationDesk(key, conversationId, rules, clock, () => {
			if (desks.get(key) === created) desks.delete(key);
		});
		desks.set(key, created);
		desk = created;
	}
	const joining = desk;
	return await new Promise<Settlement>((settle) =>
		joining.join(delivery.message.id, { ...delivery, settle }),
	);
}

/**
 * The trigger at `scope` stopped listening (deactivated, or its workflow saved anew): every
 * delivery it holds goes back to the service unsettled, and none of them starts a run. Returns how
 * many: their bursts now wait for the service's retry.
 */
export function releaseScope(scope: string): number {
	let released = 0;
	for (const [key, desk] of desks) if (key.startsWith(`${scope}\n`)) released += desk.releaseAll();
	return released;
}
