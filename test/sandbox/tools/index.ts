import { attachmentHandlers } from './attachments';
import { businessHandlers } from './business';
import { campaignHandlers } from './campaigns';
import { chatHandlers } from './chats';
import type { ToolHandler } from './context';
import { csvHandlers } from './csv';
import { filterHandlers } from './filters';
import { formHandlers } from './forms';
import { groupHandlers } from './groups';
import { inboxReadHandlers } from './inboxReads';
import { messageHandlers } from './messages';
import { operationHandlers } from './operations';
import { pricingHandlers } from './pricing';
import { templateHandlers } from './templates';

/** Every tool's behaviour by name; the registry pairs them with catalogue and extra schemas. */
const handlers: Record<string, ToolHandler> = {
	...attachmentHandlers,
	...businessHandlers,
	...campaignHandlers,
	...chatHandlers,
	...csvHandlers,
	...filterHandlers,
	...formHandlers,
	...groupHandlers,
	...inboxReadHandlers,
	...messageHandlers,
	...operationHandlers,
	...pricingHandlers,
	...templateHandlers,
};

export const toolHandlers: Readonly<Record<string, ToolHandler>> = handlers;

/**
 * The behaviour of a tool a test adds to the catalogue (a fixture entry): registered before the
 * first sandbox starts, as a new tool's handler file would be listed above.
 */
export function registerToolHandler(name: string, handler: ToolHandler): void {
	handlers[name] = handler;
}
