import type { IDataObject } from 'n8n-workflow';

import { isRecord } from '../../shared/guards';

/*
 * A Business message.status of `failed` is a send that was accepted and then not delivered: the
 * workflow gets why in plain words, not only the provider's error list. The spec does not show the
 * errors' fields (docs/assumptions.md): each error is read by its title, message or details, and
 * its code.
 */

/** The provider's code for a free-form message outside the 24-hour window ("re-engagement message"). */
const WINDOW_CLOSED_CODES = new Set(['131047']);
const WINDOW_CLOSED_WORDS = /re-?engagement|24[ -]hour/i;

const words = (value: unknown) =>
	typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

function errorText(error: IDataObject): string | undefined {
	const code = error.code === undefined || error.code === null ? undefined : String(error.code);
	const said = words(error.title) ?? words(error.message) ?? words(error.details);
	const named = [said, code === undefined ? undefined : `code ${code}`]
		.filter((part) => part !== undefined)
		.join(', ');
	const windowClosed =
		(code !== undefined && WINDOW_CLOSED_CODES.has(code)) ||
		(said !== undefined && WINDOW_CLOSED_WORDS.test(said));
	if (windowClosed)
		return `more than 24 hours passed since the customer last wrote, so only an approved template reaches them (${named})`;
	if (named === '') return undefined;
	return said === undefined ? named : code === undefined ? said : `${said} (code ${code})`;
}

/** Why a failed status event's message was not delivered; null for any other status. */
export function statusReason(data: IDataObject): string | null {
	if (String(data.status ?? '').toLowerCase() !== 'failed') return null;
	const errors = Array.isArray(data.errors) ? data.errors.filter(isRecord) : [];
	const reasons = errors
		.map((error) => errorText(error as IDataObject))
		.filter((reason) => reason !== undefined);
	return reasons.length === 0
		? 'The message was not delivered; the provider gave no reason.'
		: `The message was not delivered: ${reasons.join('; ')}.`;
}
