import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import {
	deriveIdempotencyKey,
	generateIdempotencyKey,
	shortHash,
} from '../../../shared/client/idempotency';

const EVENT_ID_PREFIX = 'evt_';

/** The trigger's event id of an item: its `event_id` field, or the `id` of a raw event envelope. */
export function eventIdOf(item: INodeExecutionData | undefined): string | undefined {
	const json = (item?.json ?? {}) as IDataObject;
	if (typeof json.event_id === 'string' && json.event_id.startsWith(EVENT_ID_PREFIX))
		return json.event_id;
	const isEnvelope = typeof json.type === 'string' && typeof json.data === 'object';
	if (isEnvelope && typeof json.id === 'string' && json.id.startsWith(EVENT_ID_PREFIX))
		return json.id;
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
		const override = optionKey(context, itemIndex);
		if (override !== '') return batchIndex ? `${override}:${batchIndex}` : override;
		const eventId = eventIdOf(context.getInputData()[itemIndex]);
		if (eventId === undefined) return generateIdempotencyKey();
		if (batchIndex !== undefined)
			return deriveIdempotencyKey(eventId, this.nodeDiscriminator, batchIndex);
		const occurrence = this.seen.get(eventId) ?? 0;
		this.seen.set(eventId, occurrence + 1);
		return deriveIdempotencyKey(
			eventId,
			this.nodeDiscriminator,
			occurrence === 0 ? undefined : occurrence,
		);
	}

	/**
	 * Key of a call made by an AI Agent. Each call the model makes is one run of the node with
	 * one item that n8n merged with the agent's own input item (the trigger's `event_id`
	 * included), so a key per event would give every send of the agent run the same key. The key
	 * is `<scope>:<hash of node, tool and canonical input>`, the scope being the Idempotency Key
	 * option, else the event id, else this execution: different calls get different keys, an
	 * identical call repeated within the event (or the run) gets the same one and is carried out
	 * once, and a retry re-derives the key it started with.
	 */
	forAgentCall(
		context: IExecuteFunctions,
		itemIndex: number,
		tool: string,
		input: Record<string, unknown>,
	): string {
		const override = optionKey(context, itemIndex);
		const scope =
			override || eventIdOf(context.getInputData()[itemIndex]) || executionScope(context);
		if (scope === undefined) return generateIdempotencyKey();
		return deriveIdempotencyKey(
			scope,
			`${this.nodeDiscriminator}\n${tool}\n${canonicalJson(input)}`,
		);
	}
}

function optionKey(context: IExecuteFunctions, itemIndex: number): string {
	return String(context.getNodeParameter('options.idempotencyKey', itemIndex, '') ?? '').trim();
}

/*
 * Execution ids are counters of one n8n instance and workflows keep their ids when copied to
 * another instance on the same account, so the scope also names the instance and the workflow.
 */
function executionScope(context: IExecuteFunctions): string | undefined {
	const executionId = context.getExecutionId();
	if (!executionId) return undefined;
	return `x-${shortHash(`${context.getInstanceId()}\n${context.getWorkflow().id ?? ''}\n${executionId}`, 22)}`;
}

/** JSON with the keys of every object sorted, so equal inputs always read the same. */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (typeof value === 'object' && value !== null) {
		const entries = Object.entries(value).filter(([, entry]) => entry !== undefined);
		entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}
