import { DataDeduplicationService } from 'n8n-core';
import type { IExecuteFunctions, IHttpRequestOptions, INodeExecutionData } from 'n8n-workflow';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';

import { clearProcessedData, installProcessedDataStore } from '../../../support/processedData';

/*
 * The trigger's first step in a run (runClaim.ts) called as n8n calls it, without an engine: its
 * item, n8n's processed-data store (test/support/processedData.ts) and the question's link
 * answered by the test, so that two runs of one delivery can be interleaved at will.
 */

export const TRIGGER_NODE = {
	id: 'trigger-1',
	name: 'Trigger',
	type: 'messagingAutomationTrigger',
	typeVersion: 1.1,
	parameters: {},
	position: [0, 0],
};

export const TRIGGER_CLAIMANT = { trigger: TRIGGER_NODE.id, polled: false };

const noop = () => undefined;

/** A message of conversation conv-1 as a run's item lists it, written `second` s after 10:00. */
export const chatMessage = (id: string, text: string, second: number) => ({
	id,
	text,
	timestamp: `2026-11-28T10:00:0${second}.000Z`,
	conversation_id: 'conv-1',
});

/** The message ids an offer to a question's link names. */
export const offeredIds = (options: IHttpRequestOptions) =>
	(options.body as { chatAnswer: { messageIds: string[] } }).chatAnswer.messageIds;

/** The question's link as the node answers when it takes the first message offered. */
/** A question's resume link, as the chat's question carries it. */
const LINK = 'http://n8n.test/webhook-waiting/7/node-1?q=k1&chat=1&signature=0';

/** The next message's run ("hello", a run of one event), its delivery having found the earlier "1". */
export const helloRun = (): INodeExecutionData => ({
	json: {
		event_type: 'message.received',
		event_id: 'evt-hello',
		message_id: 'msg-hello',
		conversation_id: 'conv-1',
		text: 'hello',
		answer_offers: [{ question_id: 'q-1', link: LINK, message_ids: ['msg-one'] }],
	},
});

export const takesFirst = async (options: IHttpRequestOptions) => ({
	statusCode: 200,
	body: { answered: true, messageId: offeredIds(options)[0] },
});

/** The step's context for `item` in workflow `workflowId`; `link` answers the question's link. */
export function firstStepContext(
	workflowId: string,
	item: INodeExecutionData,
	link: (options: IHttpRequestOptions) => Promise<{ statusCode: number; body: unknown }>,
): IExecuteFunctions {
	const contextData = { node: TRIGGER_NODE, workflow: { id: workflowId, active: true } };
	const store = () => DataDeduplicationService.getInstance();
	return {
		getInputData: (index = 0) => (index === 0 ? [item] : []),
		getNodeParameter: (_name: string, _index: number, fallback?: unknown) => fallback,
		getMode: () => 'webhook',
		getNode: () => TRIGGER_NODE,
		getWorkflow: () => contextData.workflow,
		logger: { info: noop, warn: noop, debug: noop, error: noop },
		customData: { set: noop, setAll: noop, get: noop, getAll: () => ({}) },
		helpers: {
			checkProcessedAndRecord: async (items: string[], scope: 'workflow', options: object) =>
				await store().checkProcessedAndRecord(items, scope, contextData as never, options as never),
			removeProcessed: async (items: string[], scope: 'workflow', options: object) =>
				await store().removeProcessed(items, scope, contextData as never, options as never),
			getProcessedDataCount: async (scope: 'workflow', options: object) =>
				await store().getProcessedDataCount(scope, contextData as never, options as never),
			httpRequest: link,
		},
	} as unknown as IExecuteFunctions;
}

/**
 * Every test of the file on n8n's processed-data store, cleared before it, and on fake timers (the
 * offers' pauses and the claim's waits cost nothing); `eachTest` resets the file's own records.
 */
export function useStoreOnFakeTimers(eachTest: () => void): void {
	beforeAll(() => installProcessedDataStore());
	beforeEach(() => {
		clearProcessedData();
		vi.useFakeTimers();
		eachTest();
	});
	afterEach(() => vi.useRealTimers());
}
