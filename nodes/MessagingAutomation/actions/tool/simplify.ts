import type { IDataObject } from 'n8n-workflow';

import { isRecord } from '../../../shared/guards';

/*
 * Simplify keeps what workflows usually need: empty values go, and messages keep the fields a
 * reply or a log needs instead of every detail the service stores.
 */

const MESSAGE_FIELDS = [
	'id',
	'message_id',
	'stored_message_id',
	'conversation_id',
	'channel',
	'chat_type',
	'group',
	'from',
	'from_me',
	'type',
	'text',
	'has_attachment',
	'attachment',
	'status',
	'timestamp',
];

function isMessage(value: Record<string, unknown>): boolean {
	return 'conversation_id' in value && 'text' in value && ('from' in value || 'from_me' in value);
}

function isEmpty(value: unknown): boolean {
	if (value === null || value === undefined || value === '') return true;
	if (Array.isArray(value)) return value.length === 0;
	return isRecord(value) && Object.keys(value).length === 0;
}

function compact(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(compact).filter((item) => !isEmpty(item));
	if (!isRecord(value)) return value;
	const keys = isMessage(value) ? MESSAGE_FIELDS.filter((key) => key in value) : Object.keys(value);
	const result: Record<string, unknown> = {};
	for (const key of keys) {
		const item = compact(value[key]);
		if (!isEmpty(item)) result[key] = item;
	}
	return result;
}

export function simplify(data: Record<string, unknown>): IDataObject {
	return compact(data) as IDataObject;
}
