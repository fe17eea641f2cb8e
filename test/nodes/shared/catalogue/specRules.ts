/*
 * Rule vocabulary and the spec's identifier formats ("Common identifier formats"), written from
 * the spec and never read from the catalogue.
 */

export type FieldRule =
	| { kind: 'string'; min: number; max: number }
	| { kind: 'integer'; min: number; max: number }
	| { kind: 'enum'; values: readonly string[] }
	| { kind: 'list'; min: number; max: number; item: (index: number) => unknown }
	| { kind: 'format'; name: string; valid: readonly string[]; invalid: readonly string[] }
	| { kind: 'boolean' }
	| { kind: 'literalTrue' }
	/** Checked by its own test file (e.g. the form definition). */
	| { kind: 'opaque' };

export interface SpecRow {
	tool: string;
	/** Which variant of the input this row exercises, for tools with alternatives. */
	variant?: string;
	/** A valid input; each case changes one field of it. */
	base: Record<string, unknown>;
	/** Fields marked R in the spec (same for every row of a tool). */
	required: readonly string[];
	/** Field path -> rule; paths like `recipients[0].phoneNumber`. */
	fields: Record<string, FieldRule>;
	/** Optional fields whose presence cross-field rules govern (tested in tools/<tool>.test.ts). */
	interdependent?: readonly string[];
	assumed?: boolean;
}

export const string = (min: number, max: number): FieldRule => ({ kind: 'string', min, max });
export const integer = (min: number, max: number): FieldRule => ({ kind: 'integer', min, max });
export const oneOf = (...values: string[]): FieldRule => ({ kind: 'enum', values });
export const list = (min: number, max: number, item: (index: number) => unknown): FieldRule => ({
	kind: 'list',
	min,
	max,
	item,
});
export const boolean: FieldRule = { kind: 'boolean' };

/** Distinct valid send-format phone numbers. */
export const phone = (index: number): string => String(4915100000000 + index);

export const KEY = 'reply-evt_123:a';
export const CAMPAIGN = '3f2b8c1e-0d4a-4e7b-9a51-6c2d9e8f1a00';
export const WHEN = '2026-10-01T09:30:00Z';

export const IDEMPOTENCY_KEY: FieldRule = {
	kind: 'format',
	name: 'idempotency key: 8-128 of letters, digits, . _ : -',
	valid: ['abcdefgh', 'A'.repeat(128), 'a.b_c:d-E9'],
	invalid: ['abcdefg', 'a'.repeat(129), 'abc defgh', 'abcdefgh!', 'schlüssel-1', ''],
};
export const SEND_PHONE: FieldRule = {
	kind: 'format',
	name: 'phone (send/group): 7-15 digits, first not 0',
	valid: ['1234567', '123456789012345', '4915112345678'],
	invalid: [
		'123456',
		'1234567890123456',
		'0123456789',
		'+4915112345678',
		'49 151 1234567',
		'49151abc12',
	],
};
export const GROUP_JID: FieldRule = {
	kind: 'format',
	name: 'group jid: digits and hyphens starting with a digit, then @g.us',
	valid: ['120363025246125486@g.us', '1@g.us', '4915112345678-1600000000@g.us'],
	invalid: [
		'-123@g.us',
		'a123@g.us',
		'123@s.whatsapp.net',
		'123@g.us ',
		'@g.us',
		'123@gXus',
		'12 3@g.us',
	],
};
export const UUID: FieldRule = {
	kind: 'format',
	name: 'UUID',
	valid: [CAMPAIGN, '00000000-0000-0000-0000-000000000000', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF'],
	invalid: [
		'3f2b8c1e0d4a4e7b9a516c2d9e8f1a00',
		'3f2b8c1e-0d4a-4e7b-9a51-6c2d9e8f1a0',
		'campaign-1',
		`${CAMPAIGN}0`,
	],
};
export const DATE_TIME: FieldRule = {
	kind: 'format',
	name: 'date-time (RFC 3339, with timezone)',
	valid: [WHEN, '2026-10-01T09:30:00.123Z', '2026-10-01T11:30:00+02:00'],
	invalid: [
		'2026-10-01',
		'2026-10-01T09:30:00',
		'yesterday',
		'2026-13-01T09:30:00Z',
		'01.10.2026 09:30',
	],
};
/** create_campaign: "lowercase letters, digits, underscore, 1-512". */
export const TEMPLATE_NAME: FieldRule = {
	kind: 'format',
	name: 'template name: lowercase letters, digits, underscore, 1-512',
	valid: ['a', 'a'.repeat(512), 'order_update_2'],
	invalid: ['', 'a'.repeat(513), 'Order_update', 'order-update', 'order update'],
};
