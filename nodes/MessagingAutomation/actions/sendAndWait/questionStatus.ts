import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { getSendStatusTool } from '../../../shared/catalogue/tools/get_send_status';
import { createNodeClient, EDITOR_LOOKUP } from '../../../shared/transport/nodeClient';

export interface QuestionStatus {
	messageId?: string;
	conversationId?: string;
}

/**
 * The question's message, looked up by the idempotency key its send used (the links' `q`). Empty
 * when the service cannot say: a link's answer never waits on it.
 */
export async function questionStatus(
	context: IWebhookFunctions,
	idempotencyKey: string | undefined,
): Promise<QuestionStatus> {
	if (!idempotencyKey) return {};
	try {
		const client = await createNodeClient(context, { ...EDITOR_LOOKUP, timeoutMs: 5_000 });
		const { data } = await client.callTool<IDataObject>(getSendStatusTool.name, { idempotencyKey });
		const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
		return { messageId: text(data.message_id), conversationId: text(data.conversation_id) };
	} catch {
		return {};
	}
}
