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

/**
 * How a tool's array input is split across calls when items are batched (the node then offers
 * "One per Item, Batched"). Declared only where splitting is harmless: a creating tool keeps its
 * list in one call, since splitting create_group would create several groups.
 */
export interface BatchSpec {
	/** Name of the array property that is split, e.g. `recipients`. */
	field: string;
	/** Most elements one call accepts, from the spec. */
	max: number;
	/** Property of an element that identifies duplicates; omitted for arrays of strings. */
	dedupeBy?: string;
}

/**
 * A list tool: Return All and Limit follow its cursor. These input fields are the node's to fill,
 * never shown as fields (the live schema may name them otherwise; see actions/tool/pagination.ts).
 */
export interface PagingSpec {
	cursor: string;
	limit: string;
}

/**
 * A tool that analyses a CSV: the node builds the CSV from input items, a binary file or text, and
 * splits what is longer than one call takes into parts (actions/tool/csvAnalysis.ts).
 */
export interface CsvAnalysisSpec {
	/** The input field that carries the CSV text. */
	field: string;
	/** Most data rows one call takes, from the spec. */
	maxRows: number;
}

/**
 * The look-ups that tell whether a write whose outcome is uncertain happened: `operation` by
 * operation id or idempotency key, `sendStatus` by the idempotency key of a send.
 */
export type OutcomeLookup = 'operation' | 'sendStatus';

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
	options: ReadonlyArray<{
		field: string;
		name: string;
		description: string;
		with?: readonly string[];
	}>;
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
	 * The spec names the tool but not its input: the fields follow docs/assumptions.md, and
	 * input is checked against the live schema only, never against this one.
	 */
	shapeAssumed?: true;
	access: ToolAccess;
	/** Scope the key needs (assumed names, see docs/assumptions.md). */
	scope: string;
	ownerOnly: boolean;
	channel: ToolChannel;
	/** Counts against the QR number's shared send limits (5/min, 50/day). */
	countsAsSend: boolean;
	/**
	 * Sends free text, which Business delivers only within 24 hours of the customer's last message:
	 * the node checks that window first and offers what to do when it is closed.
	 */
	freeTextWindow?: true;
	batch?: BatchSpec;
	paging?: PagingSpec;
	/** Answers large enough to deserve a Simplify switch (on by default). */
	simplify?: true;
	/** The answer holds a short-lived link to a file: the node offers Download File. */
	downloadsLink?: true;
	csvAnalysis?: CsvAnalysisSpec;
	/** Its answer lists a conversation's messages: the node can give them as history for a prompt. */
	conversationHistory?: true;
	/**
	 * Writes: the look-ups that settle an uncertain outcome, in order (defineTool: `operation`, and
	 * `sendStatus` too for sends). Empty for reads, which are simply asked again.
	 */
	outcomeCheck: readonly OutcomeLookup[];
	/** A read tool that answers one of the outcome look-ups. */
	answersLookup?: OutcomeLookup;
	/** One or two sentences for people and AI agents: what it does, what it does not prove. */
	description: string;
	/** Strict zod object: unknown properties are rejected. */
	input: Input;
}

export type ToolInput<T extends ToolDefinition> = z.input<T['input']>;
