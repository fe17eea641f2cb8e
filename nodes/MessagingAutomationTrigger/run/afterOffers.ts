import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { hasOffers, offersIn } from '../answers/answerPass';
import { claimed, type Claimant } from './claimStore';
import { narrowedRun } from './narrowedRun';
import { groupedIds, refuseUnclaimed } from './unclaimedRun';
import { messageKey, messageOfKey } from './claimKeys';

/*
 * A burst with answers in it ("why?" then "1") is claimed in two steps. The answers it offers are
 * claimed before the offers (one claim per answer, answerPass.ts); its other messages only once
 * the offers ended, just before the step passes them on. n8n stopped while the offers are made
 * (their tries take up to 2.5 minutes) leaves those others unclaimed, so the service's retry of the
 * delivery runs them; a run of the same burst that claims them meanwhile runs them, and this run
 * passes on only what is left.
 */

const burstIds = (item: INodeExecutionData): string[] => groupedIds(item) ?? [];

/** The claim keys of the grouped runs' messages that no offer of the run names: claimed after the offers. */
export function afterOfferKeys(items: readonly INodeExecutionData[]): Set<string> {
	const offering = items.filter(hasOffers);
	const offered = new Set(
		offering.flatMap((item) => offersIn(item, () => true).flatMap((entry) => entry.messageIds)),
	);
	return new Set(
		offering
			.flatMap(burstIds)
			.filter((id) => !offered.has(id))
			.map(messageKey),
	);
}

/**
 * The run's items once it claimed `keys` (afterOfferKeys), its offers ended: the messages another
 * run claimed meanwhile are taken out (that run runs them), an item left with none goes no further.
 * A failed store lets them go on, as a burst's own run does when the store cannot say (twice beats
 * never); a run a carried delivery started fails visibly instead (unclaimedRun.ts).
 */
export async function claimedAfterOffers(
	context: IExecuteFunctions,
	outputs: INodeExecutionData[][],
	keys: ReadonlySet<string>,
	claimant: Claimant,
	/** The run's items as handed over, before the answers were taken out (unclaimedRun.ts reads them). */
	delivered: readonly INodeExecutionData[],
): Promise<INodeExecutionData[][]> {
	if (keys.size === 0) return outputs;
	const fresh = await claimed(context, [...keys], claimant);
	// A run a carried delivery started fails visibly here too (R5-3): most often a copy ran them. A
	// poll's run goes on: its offers ended and are recorded, so a refused reply would run in no run
	// (R11c-1).
	if (!fresh && !claimant.polled) refuseUnclaimed(context, claimant, delivered);
	if (!fresh && claimant.polled)
		context.logger.warn(
			`Messaging Automation Trigger: runs caught-up messages ${[...keys].map((key) => messageOfKey(key) ?? key).join(',')} unchecked: their answer offers ended, so they run now rather than never (another run may run them too)`,
		);
	if (!fresh) return outputs;
	const elsewhere = new Set(
		[...keys].filter((key) => !fresh.has(key)).map((key) => messageOfKey(key) ?? key),
	);
	if (elsewhere.size === 0) return outputs;
	return outputs.map((list) =>
		list.flatMap((item) => {
			const ids = burstIds(item);
			if (!ids.some((id) => elsewhere.has(id))) return [item];
			const keep = new Set(ids.filter((id) => !elsewhere.has(id)));
			context.logger.info(
				`Messaging Automation Trigger: messages ${ids.filter((id) => elsewhere.has(id)).join(',')} of the run of messages ${ids.join(',')} were run by another run of their burst while this one made its answer offers${keep.size === 0 ? '; this run passes nothing on' : `; it runs with ${[...keep].join(',')}`}`,
			);
			return keep.size === 0 ? [] : [narrowedRun(item, keep)];
		}),
	);
}
