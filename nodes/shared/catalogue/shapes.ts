import { z } from 'zod/v4';
import type { FieldLayout } from './types';
import { chars, idempotencyKey, integer, list, sendPhone } from './formats';

/** Group calls take 1-50 phone numbers in the send format (spec "participants per group call"). */
export const groupParticipants = list(sendPhone, 1, 50);

/**
 * Input of a write tool from the spec table: these all require `idempotencyKey` in the body
 * (send_message, whose key may come from the header instead, declares its own).
 */
export function writeInput<Shape extends z.ZodRawShape>(shape: Shape) {
	return z.strictObject({ idempotencyKey, ...shape });
}

/**
 * Metadata shared by the three group tools: QR only, the group permission (assumed scope name
 * `messenger.groups`).
 */
export const groupToolMetadata = {
	resource: 'group',
	access: 'write',
	scope: 'messenger.groups',
	channel: 'qr',
} as const;

/** Participants of an existing group, split into calls of at most 50. */
export const groupBatch = { field: 'participants', max: 50 } as const;

/*
 * Paging of the list and search tools the spec names without shapes (docs/assumptions.md):
 * an opaque cursor and a page size. The node follows `next_cursor` for Return All.
 */
export const pageFields = {
	cursor: chars(1, 200)
		.optional()
		.meta({ title: 'Cursor' })
		.describe('Where the previous page ended; leave empty for the first page'),
	limit: integer(1, 100)
		.optional()
		.meta({ title: 'Page Size' })
		.describe('Results per call, 1-100'),
};

/** What a list tool with `pageFields` declares: Return All follows its cursor; its answers get Simplify. */
export const pagedList = { paging: { cursor: 'cursor', limit: 'limit' }, simplify: true } as const;

/** Read tools the spec names but does not shape: the node's fields follow docs/assumptions.md. */
export const assumedReadTool = { access: 'read', shapeAssumed: true } as const;

/**
 * The outcome look-ups (get_operation, get_send_status) take either the call's own id or the
 * idempotency key it used: one choice up front, "Look Up By".
 */
export function lookUpByLayout(field: string, name: string, description: string): FieldLayout {
	return {
		choices: [
			{
				parameter: 'lookUpBy',
				displayName: 'Look Up By',
				description: 'Which identifier of the earlier call you have',
				options: [
					{ field, name, description },
					{
						field: 'idempotencyKey',
						name: 'Idempotency Key',
						description: 'The idempotency key the call used',
					},
				],
			},
		],
	};
}
