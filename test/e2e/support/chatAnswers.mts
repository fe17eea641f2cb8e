import { randomInt } from 'node:crypto';
import { expect } from 'vitest';
import { executionError, nodeOutput, type N8nRestApi } from '../../support/n8nRestApi.mjs';
import { sandboxControl, waitFor } from './context.mjs';
import { askAndWait } from './sendAndWait.mjs';

/*
 * A Send and Wait answered in the chat, for the suites that ask over the sandbox in a real n8n
 * (the suite's own, or one that is stopped while the question waits): asking, the person writing,
 * and what became of the reply.
 */

/** A trigger with Pass Answers to Send and Wait on, registered by itself as a user would. */
export const ANSWERS_TRIGGER = {
	registration: 'auto',
	events: ['message.received'],
	answersToSendAndWait: true,
};

let phones = 0;
/** A number no other test writes from, so no other open question is in its chat. */
export const newPhone = () => `4916${String(randomInt(1e6)).padStart(6, '0')}${++phones}`;

export interface Delivery {
	status: string;
	payload: string | null;
	attemptLog: Array<{ at: number; completedAt: number; statusCode: number | null }>;
}

/** Asks `phone` for an approval answered in the chat; resolves once the execution waits. */
export async function askInChat(
	api: N8nRestApi,
	credential: { id: string; name: string },
	phone: string,
	parameters: Record<string, unknown> = {},
) {
	const message = `May we refund order ${randomInt(100_000, 999_999)}?`;
	const { executionId, sent } = await askAndWait(api, credential, 'e2e answer in chat', {
		phoneNumber: phone,
		message,
		answerInChat: true,
		approvalOptions: { values: { approvalType: 'double' } },
		...parameters,
	});
	return { executionId, sent, link: /https?:\/\/\S+/.exec(sent.text)?.[0] as string };
}

/** The person (or, `fromMe`, the account) writes in `phone`'s chat; the saved message. */
export async function writeInChat(
	phone: string,
	text: string,
	extra: Record<string, unknown> = {},
) {
	const { saved, message } = await sandboxControl<{
		saved: boolean;
		message: { id: string; timestamp: string };
	}>('POST', '/inject/message', { from: { phone, name: 'Manager' }, text, ...extra });
	expect(saved).toBe(true);
	return message;
}

/** The delivery of the event of message `messageId`, once the trigger answered it. */
export async function delivered(messageId: string): Promise<Delivery> {
	return await waitFor(`the delivery of ${messageId} to be answered`, async () => {
		const { deliveries } = await sandboxControl<{ deliveries: Delivery[] }>('GET', '/webhooks');
		return deliveries.find(
			(delivery) =>
				delivery.payload?.includes(`"id":"${messageId}"`) && delivery.status === 'delivered',
		);
	});
}

/** The trigger's items, in the runs of workflow `workflowId`, that hold the message `messageId`. */
export async function triggerItems(
	api: N8nRestApi,
	workflowId: string,
	messageId: string,
): Promise<Array<Record<string, unknown>>> {
	const items: Array<Record<string, unknown>> = [];
	for (const listed of await api.listExecutions(workflowId)) {
		const execution = await api.getExecution(listed.id);
		const item = (nodeOutput(execution, 'Trigger') ?? []).find(
			(json) => json.message_id === messageId,
		);
		if (item) items.push(item);
	}
	return items;
}

/** Runs of the trigger workflow `workflowId` that hold the message `messageId`. */
export async function triggerRuns(
	api: N8nRestApi,
	workflowId: string,
	messageId: string,
): Promise<number> {
	return (await triggerItems(api, workflowId, messageId)).length;
}

/** The finished execution of an answered question: the node's output and when it ran again. */
export async function answered(api: N8nRestApi, executionId: string) {
	const execution = await api.waitForExecution(executionId, 60_000);
	expect(executionError(execution)).toBeUndefined();
	const runs = (
		execution.data as { resultData?: { runData?: Record<string, Array<{ startTime: number }>> } }
	).resultData?.runData?.Action;
	return {
		execution,
		output: nodeOutput(execution, 'Action')?.[0] as {
			data: Record<string, unknown>;
			messageId?: string;
		},
		/** When the node ran again (n8n keeps only the resumed run). */
		resumedAt: runs?.at(-1)?.startTime ?? Number.NaN,
	};
}
