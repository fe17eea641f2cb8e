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

/**
 * How the tool appears as an operation of the action node. The nodes panel, the automatic node
 * name and the AI tool name all come from `action`, so it reads as a person would say it.
 */
export interface ToolOperation {
	/** Operation value, unique within the resource: `send`, `addRecipients`. */
	value: string;
	/** Dropdown name, Title Case, verb first: "Send", "Add Recipients". */
	name: string;
	/** Sentence case: "Send a message". */
	action: string;
	/** One line for the dropdown, under 80 characters, no API identifiers. */
	summary: string;
	/** The operation a new node of this resource starts with. */
	default?: true;
}

/**
 * A set of mutually exclusive fields offered as one choice up front ("To: Phone Number or
 * Conversation"); the chosen field, and the fields that only make sense with it, follow it.
 */
export interface FieldChoice {
	/** Parameter name of the selector. */
	parameter: string;
	displayName: string;
	description: string;
	options: ReadonlyArray<{ field: string; name: string; description: string; with?: readonly string[] }>;
}

/** Where the node shows optional fields: by default they go under Additional Fields. */
export interface FieldLayout {
	/** Optional fields shown up front, in this order, before the choices. */
	primary?: readonly string[];
	choices?: readonly FieldChoice[];
}

export interface ToolDefinition<Input extends z.ZodObject = z.ZodObject> {
	/** API name: `POST /api/v1/tools/<name>`. */
	name: string;
	displayName: string;
	resource: ToolResource;
	operation: ToolOperation;
	layout?: FieldLayout;
	/**
	 * The spec names the tool but not its input: the fields follow the README's assumption, and
	 * input is checked against the live schema only, never against this one.
	 */
	shapeAssumed?: true;
	access: ToolAccess;
	/** Scope the key needs (assumed names, see README "Assumptions"). */
	scope: string;
	ownerOnly: boolean;
	channel: ToolChannel;
	/** Counts against the QR number's shared send limits (5/min, 50/day). */
	countsAsSend: boolean;
	batch?: BatchSpec;
	/** Its answer lists a conversation's messages: the node can give them as history for a prompt. */
	conversationHistory?: true;
	/** One or two sentences for people and AI agents: what it does, what it does not prove. */
	description: string;
	/** Strict zod object: unknown properties are rejected. */
	input: Input;
}

export type ToolInput<T extends ToolDefinition> = z.input<T['input']>;
