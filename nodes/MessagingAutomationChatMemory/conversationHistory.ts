import type { ChatHistory, Message } from '@n8n/ai-node-sdk';
import { NodeOperationError, type ISupplyDataFunctions } from 'n8n-workflow';

import { turnEnd } from '../shared/conversation/history';
import { memoryMessages, needsOlderPage } from '../shared/conversation/memory';
import { ConversationReader, reasonOf, type ConversationRead } from '../shared/conversation/reader';
import { deadlineIn } from '../shared/monotonic';

/** How long a busy service (429s, 503s, dropped connections) is waited out before the Agent's run fails. */
const READ_PATIENCE_MS = 10_000;
/** Pages of one read at most: a window of 50 interactions with a long burst still fits. */
const MAX_PAGES = 4;

export interface HistorySettings {
	conversationId: string;
	/** The run's own message or burst: the Agent's input, left out with everything after it. */
	currentIds: string[];
	/** Messages the memory holds at most: twice the context window length, as n8n's memories count. */
	messageCount: number;
}

/**
 * The conversation as the Agent's chat history, read once per run: every later ask (n8n asks again
 * to log what was saved) is answered from that one read. Nothing is written: what the Agent said
 * is in the conversation only if it was sent, and the service saved it then.
 */
export class ConversationHistory implements ChatHistory {
	private messages?: Promise<Message[]>;

	constructor(
		private readonly context: ISupplyDataFunctions,
		private readonly settings: HistorySettings,
	) {}

	async getMessages(): Promise<Message[]> {
		return await (this.messages ??= this.read());
	}

	async addMessage(): Promise<void> {}

	async addMessages(): Promise<void> {}

	async clear(): Promise<void> {}

	private async read(): Promise<Message[]> {
		const { conversationId, currentIds, messageCount } = this.settings;
		const node = this.context.getNode();
		if (conversationId === '')
			throw new NodeOperationError(node, 'No conversation to remember', {
				description:
					'Conversation ID is empty: behind the Messaging Automation Trigger or a message of the action node, `{{ $json.conversation_id }}` names it',
			});
		const read = await this.readPages().catch((error: unknown) => {
			throw new NodeOperationError(
				node,
				`Could not read conversation ${conversationId}: ${reasonOf(error)}`,
				{ description: 'The Agent did not run: it would have answered without the conversation.' },
			);
		});
		if (turnEnd(read.timeline, currentIds) < 0)
			throw new NodeOperationError(
				node,
				`Message ${currentIds.join(', ')} is not among the last ${read.timeline.length} messages of conversation ${conversationId}`,
				{
					description:
						"Current Message IDs name the run's own message or burst, which the memory leaves out: the default works behind the Messaging Automation Trigger and the action node's message outputs",
				},
			);
		return memoryMessages(read.timeline, currentIds, messageCount);
	}

	/** The newest page, and older ones only while the window reaches past them. */
	private async readPages(): Promise<ConversationRead> {
		const { conversationId, currentIds, messageCount } = this.settings;
		const reader = new ConversationReader(this.context, messageCount + currentIds.length);
		const until = deadlineIn(READ_PATIENCE_MS);
		const read = await reader.read(conversationId, until);
		while (
			needsOlderPage(read.timeline, currentIds, messageCount) &&
			read.cursor &&
			read.reads < MAX_PAGES
		)
			await reader.older(read, until);
		return read;
	}
}
