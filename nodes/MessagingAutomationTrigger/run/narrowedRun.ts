import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { narrowedTurnJson } from './output';

/** An idempotency key as the service takes it: 8 to 128 of letters, digits, `.`, `_`, `:`, `-`. */
const asKey = (text: string) => text.replace(/[^A-Za-z0-9._:-]/g, '_').slice(0, 128);

/**
 * A grouped run narrowed to the messages `keep` (runClaim.ts), the others having run before: its
 * item holds only theirs (their files are downloaded after, runAttachments.ts). Its `event_id` is
 * its own (the closing event's, with its last message's id), so a reply keyed on it is not taken
 * for the earlier run's reply.
 */
export function narrowedRun(
	item: INodeExecutionData,
	keep: ReadonlySet<string>,
): INodeExecutionData {
	const json = narrowedTurnJson(item.json, keep);
	const messages = json.messages as IDataObject[];
	const last = messages[messages.length - 1]?.id;
	if (typeof json.event_id === 'string' && typeof last === 'string')
		json.event_id = asKey(`${json.event_id}:${last}`);
	return { ...item, json };
}
