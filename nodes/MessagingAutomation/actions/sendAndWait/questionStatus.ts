import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { getSendStatusTool } from '../../../shared/catalogue/tools/get_send_status';
import { retryRuleOf } from '../../../shared/client/errorRules';
import { MessagingApiError } from '../../../shared/client/errors';
import { reasonOf } from '../../../shared/conversation/reader';
import { createNodeClient, EDITOR_LOOKUP } from '../../../shared/transport/nodeClient';

export interface QuestionStatus {
	messageId?: string;
	conversationId?: string;
	/** Why the service could not say, when it could not. */
	failed?: string;
}

/**
 * The question's message, looked up by the idempotency key its send used (the links' `q`). Empty,
 * or `failed`, when the service cannot say: a link's answer never waits on it.
 */
export async function questionStatus(
	context: IWebhookFunctions,
	idempotencyKey: string | undefined,
	timeoutMs = 5_000,
): Promise<QuestionStatus> {
	if (!idempotencyKey) return {};
	try {
		const client = await createNodeClient(context, { ...EDITOR_LOOKUP, timeoutMs });
		const { data } = await client.callTool<IDataObject>(getSendStatusTool.name, { idempotencyKey });
		const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
		return { messageId: text(data.message_id), conversationId: text(data.conversation_id) };
	} catch (error) {
		// A final answer (no send with that key) leaves nothing to check; a passing one is said, so the
		// reply is checked again on the service's retry.
		if (error instanceof MessagingApiError && retryRuleOf(error) === 'never') return {};
		return { failed: reasonOf(error) };
	}
}
