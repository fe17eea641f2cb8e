import { findTool } from '../catalogue';
import { isQrSend } from '../catalogue/qrSend';
import type { ToolAccess } from '../catalogue/types';
import { InputValidationError } from './errors';
import { generateIdempotencyKey, isValidIdempotencyKey } from './idempotency';
import type { PaceBucket } from './pacer';
import { schemaHasProperty } from './toolListing';

export interface CallToolOptions {
	/**
	 * Key of this action. Reused unchanged on every retry. A key in the input's own
	 * `idempotencyKey` field wins, as it does on the server; without either, one is generated.
	 */
	idempotencyKey?: string;
	/** Read or write, for tools the catalogue does not know (from GET /api/v1/tools). */
	access?: ToolAccess;
	/** Live JSON Schema, for tools the catalogue does not know: decides the body key field. */
	inputSchema?: Record<string, unknown>;
	/** Override whether the call is a send from the personal (QR) number, paced at 5 per minute. */
	qrSend?: boolean;
	/** The QR number the send goes from, when the account has several; one shared budget otherwise. */
	qrNumber?: string;
	timeoutMs?: number;
}

/** Everything the request loop needs to send one tool call, decided before anything is sent. */
export interface ToolCallPlan {
	path: string;
	body: Record<string, unknown>;
	headers: Record<string, string>;
	access: ToolAccess;
	idempotencyKey?: string;
	pace: PaceBucket[];
	scope?: string;
}

function resolveKey(input: Record<string, unknown>, options: CallToolOptions): string {
	const key =
		typeof input.idempotencyKey === 'string' ? input.idempotencyKey : options.idempotencyKey;
	const chosen = key ?? generateIdempotencyKey();
	if (!isValidIdempotencyKey(chosen)) {
		throw new InputValidationError(
			'The idempotency key must be 8-128 characters of letters, digits, ".", "_", ":" or "-". Nothing was sent.',
			{ code: 'input_validation', field: 'idempotencyKey' },
		);
	}
	return chosen;
}

/**
 * Tools without input get `{}`. Write calls always carry a key: in the `Idempotency-Key` header,
 * and also in the body when the tool's schema has an `idempotencyKey` property (the catalogue
 * decides for known tools, the live schema for the others), both with the same value.
 */
export function planToolCall(
	name: string,
	input: Record<string, unknown> = {},
	options: CallToolOptions = {},
): ToolCallPlan {
	const definition = findTool(name);
	const access = options.access ?? definition?.access ?? 'write';
	const plan: ToolCallPlan = {
		path: `/api/v1/tools/${encodeURIComponent(name)}`,
		body: { ...input },
		headers: {},
		access,
		pace: [access],
		scope: definition?.scope,
	};
	if (access === 'read') return plan;

	const key = resolveKey(input, options);
	plan.idempotencyKey = key;
	plan.headers['Idempotency-Key'] = key;
	const bodyTakesKey = definition
		? 'idempotencyKey' in definition.input.shape
		: schemaHasProperty(options.inputSchema, 'idempotencyKey');
	if (bodyTakesKey) plan.body.idempotencyKey = key;
	if (options.qrSend ?? isQrSend(definition, plan.body)) plan.pace.push(`qr:${options.qrNumber ?? 'default'}`);
	return plan;
}
