import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { deriveIdempotencyKey, generateIdempotencyKey } from '../../../shared/client/idempotency';

const EVENT_ID_PREFIX = 'evt_';

/** The trigger's event id of an item: its `event_id` field, or the `id` of a raw event envelope. */
export function eventIdOf(item: INodeExecutionData | undefined): string | undefined {
	const json = (item?.json ?? {}) as IDataObject;
	if (typeof json.event_id === 'string' && json.event_id.startsWith(EVENT_ID_PREFIX)) return json.event_id;
	const isEnvelope = typeof json.type === 'string' && typeof json.data === 'object';
	if (isEnvelope && typeof json.id === 'string' && json.id.startsWith(EVENT_ID_PREFIX)) return json.id;
	return undefined;
}

/**
 * Chooses the idempotency key of each write. In order:
 * 1. the Idempotency Key option (an expression, evaluated per item), used as given;
 * 2. for items from the trigger, `<event_id>:<hash of this node>[:n]`, so rerunning one event never
 *    acts twice while two nodes answering the same event never share a key; `n` tells apart the
 *    batches, or the further items one event fanned out into;
 * 3. otherwise a fresh key per item, reused on every retry of that item within the run.
 */
export class IdempotencyKeys {
	private readonly seen = new Map<string, number>();

	constructor(private readonly nodeDiscriminator: string) {}

	/** Key of item `itemIndex`'s call; `batchIndex` when one call carries a batch of items. */
	choose(context: IExecuteFunctions, itemIndex: number, batchIndex?: number): string {
		const override = String(context.getNodeParameter('options.idempotencyKey', itemIndex, '') ?? '').trim();
		if (override !== '') return batchIndex ? `${override}:${batchIndex}` : override;
		const eventId = eventIdOf(context.getInputData()[itemIndex]);
		if (eventId === undefined) return generateIdempotencyKey();
		if (batchIndex !== undefined) return deriveIdempotencyKey(eventId, this.nodeDiscriminator, batchIndex);
		const occurrence = this.seen.get(eventId) ?? 0;
		this.seen.set(eventId, occurrence + 1);
		return deriveIdempotencyKey(eventId, this.nodeDiscriminator, occurrence === 0 ? undefined : occurrence);
	}
}
