import type { z } from 'zod/v4';

/** Resource groups of the action node's first dropdown. */
export type ToolResource =
	| 'message'
	| 'chat'
	| 'group'
	| 'numberFilter'
	| 'businessTemplate'
	| 'campaign'
	| 'form'
	| 'businessAccount'
	| 'account'
	| 'other';

/** Read and write tools have separate per-minute ceilings (600 / 120 per key). */
export type ToolAccess = 'read' | 'write';

/**
 * The channel a tool acts on. `input` means the call's own `channel` field decides
 * (send_message, check_recipient_send_options).
 */
export type ToolChannel = 'qr' | 'business' | 'input' | 'none';

/** How a tool's array input is split across calls when items are batched. */
export interface BatchSpec {
	/** Name of the array property that is split, e.g. `recipients`. */
	field: string;
	/** Most elements one call accepts, from the spec. */
	max: number;
	/** Property of an element that identifies duplicates; omitted for arrays of strings. */
	dedupeBy?: string;
}

export interface ToolDefinition<Input extends z.ZodObject = z.ZodObject> {
	/** API name: `POST /api/v1/tools/<name>`. */
	name: string;
	displayName: string;
	resource: ToolResource;
	access: ToolAccess;
	/** Scope the key needs (assumed names, see README "Assumptions"). */
	scope: string;
	ownerOnly: boolean;
	channel: ToolChannel;
	/** Counts against the QR number's shared send limits (5/min, 50/day). */
	countsAsSend: boolean;
	batch?: BatchSpec;
	/** One or two sentences for people and AI agents: what it does, what it does not prove. */
	description: string;
	/** Strict zod object: unknown properties are rejected. */
	input: Input;
}

export type ToolInput<T extends ToolDefinition> = z.input<T['input']>;
