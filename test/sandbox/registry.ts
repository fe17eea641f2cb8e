import { catalogue } from '../../nodes/shared/catalogue';
import { toolJsonSchema, type ToolJsonSchema } from '../../nodes/shared/catalogue/jsonSchema';
import type { Caller } from './auth';
import type { Channel } from './model';
import { SandboxApiError } from './sandboxError';
import type { ToolHandler } from './tools/context';
import { extraTools, type ServiceTool } from './tools/extraTools';
import { toolHandlers } from './tools';

export interface SandboxTool {
	def: ServiceTool;
	handler: ToolHandler;
	/** Reads or acts on saved inbox data, so the account needs inbox storage consent. */
	inboxData: boolean;
	/** Channel that must be connected before the tool acts on the network. */
	needsConnection: Channel | null;
}

/** Tools that read saved messages and files (the sandbox's reading of "inbox storage consent"). */
const INBOX_TOOLS = new Set([
	'list_conversations',
	'get_messages',
	'search_messages',
	'search_attachments',
	'get_attachment_link',
	'forward_message',
	'delete_chat',
]);

/*
 * Saved files and chats live in the service, so these work while the channel is down;
 * every other qr/business tool talks to the network and needs its channel connected.
 */
const OFFLINE_TOOLS = new Set(['get_attachment_link', 'delete_chat']);

function build(): Map<string, SandboxTool> {
	const tools = new Map<string, SandboxTool>();
	for (const def of [...catalogue.filter((tool) => !tool.shapeAssumed), ...extraTools]) {
		const handler = toolHandlers[def.name];
		if (!handler) throw new Error(`sandbox has no handler for ${def.name}`);
		const fixed = def.channel === 'qr' || def.channel === 'business' ? def.channel : null;
		tools.set(def.name, {
			def,
			handler,
			inboxData: INBOX_TOOLS.has(def.name),
			needsConnection: OFFLINE_TOOLS.has(def.name) ? null : fixed,
		});
	}
	return tools;
}

let built: ReadonlyMap<string, SandboxTool> | undefined;

/** Built on first use, so that a test can register the handler of a fixture tool first. */
function registry(): ReadonlyMap<string, SandboxTool> {
	built ??= build();
	return built;
}

function denial(tool: SandboxTool, caller: Caller): string | null {
	if (!caller.key.scopes.includes(tool.def.scope)) {
		return `This API key lacks the scope "${tool.def.scope}" that ${tool.def.name} needs.`;
	}
	if (tool.def.ownerOnly && !caller.key.owner) return `${tool.def.name} is available to the account owner only.`;
	if (tool.inboxData && !caller.account.inboxStorageConsent) {
		return 'The account has not given inbox storage consent, so saved messages cannot be read through the API.';
	}
	return null;
}

/** 404 for names the service does not know, 403 for tools this key may not use. */
export function permittedTool(name: string, caller: Caller): SandboxTool {
	const tool = registry().get(name);
	if (!tool) {
		throw new SandboxApiError(404, 'unknown_tool', `Unknown tool "${name}"; GET /api/v1/tools lists the tools this key may use.`);
	}
	const reason = denial(tool, caller);
	if (reason) throw new SandboxApiError(403, 'insufficient_permission', reason);
	return tool;
}

export interface ListedTool {
	name: string;
	description: string;
	access: 'read' | 'write';
	input_schema: ToolJsonSchema;
}

/** GET /api/v1/tools: only the tools the key may use, with their input JSON Schema. */
export function toolListing(caller: Caller): ListedTool[] {
	return [...registry().values()]
		.filter((tool) => denial(tool, caller) === null)
		.map((tool) => ({
			name: tool.def.name,
			description: tool.def.description,
			access: tool.def.access,
			input_schema: toolJsonSchema(tool.def),
		}));
}
