import { DataDeduplicationService } from 'n8n-core';
import type { IExecuteFunctions, IHttpRequestOptions, INodeExecutionData } from 'n8n-workflow';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';

import type { AnswerOffer } from '../../../../nodes/MessagingAutomationTrigger/answers/answerRoute';
import { CLAIM_RECHECKS_MS } from '../../../../nodes/MessagingAutomationTrigger/run/claimStore';
import { turnItemJson } from '../../../../nodes/MessagingAutomationTrigger/run/output';
import { claimRun } from '../../../../nodes/MessagingAutomationTrigger/run/runClaim';
import type { EventEnvelope, EventMessage } from '../../../../nodes/shared/webhooks/events';
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

/** A question's resume link, as the chat's question carries it (execution 7, or `execution`). */
const linkOf = (execution = 7) =>
	`http://n8n.test/webhook-waiting/${execution}/node-1?q=k1&chat=1&signature=0`;

const HELLO_AT = Date.UTC(2026, 10, 28, 10, 1, 30);

/** A person's message in conv-1 as the service delivers it, written `secondsBefore` "hello". */
const personMessage = (id: string, text: string, secondsBefore: number): EventMessage => ({
	id,
	conversation_id: 'conv-1',
	channel: 'qr',
	chat_type: 'individual',
	from: { phone: '447700900123', name: 'Bob' },
	from_me: false,
	type: 'text',
	text,
	timestamp: new Date(HELLO_AT - secondsBefore * 1000).toISOString(),
});

/** An earlier answer the delivery found, offered to question `question` (execution `execution`). */
export interface EarlierOffer {
	id: string;
	text: string;
	secondsBefore: number;
	question: string;
	execution: number;
}

const ONE: EarlierOffer = {
	id: 'msg-one',
	text: '1',
	secondsBefore: 90,
	question: 'q-1',
	execution: 7,
};

/**
 * The next message's run ("hello", grouped or not), as the trigger hands it to n8n, its delivery
 * having found the earlier answers `earlier` still waiting for their questions (answerRoute.ts:
 * earlierAnswer): by default the "1" written 90 s before it.
 */
export function helloRun(
	options: { grouped?: boolean; earlier?: EarlierOffer[] } = {},
): INodeExecutionData {
	const hello = personMessage('msg-hello', 'hello', 0);
	const envelope: EventEnvelope = {
		id: 'evt-hello',
		type: 'message.received',
		created_at: new Date(HELLO_AT + 200).toISOString(),
		api_version: '2026-01-01',
		account_id: 'acc-1',
		data: { message: hello },
	};
	const offers: AnswerOffer[] = (options.earlier ?? [ONE]).map((entry) => ({
		question_id: entry.question,
		link: linkOf(entry.execution),
		message_ids: [entry.id],
		earlier: [
			{
				message: personMessage(entry.id, entry.text, entry.secondsBefore),
				at: HELLO_AT - entry.secondsBefore * 1000,
				age_seconds: entry.secondsBefore,
				previous_message_id: null,
			},
		],
	}));
	const json = turnItemJson(envelope, {
		run: true,
		...(options.grouped ? { messages: [hello], closedBy: 'quiet_window' as const } : {}),
		waitingQuestion: null,
		answerOffers: offers,
	});
	return { json };
}

/**
 * The run of the "1" itself (with `burst`, of the burst "1" "2" written 5 s apart, both answering
 * q-1): its own first offer of them, as the trigger hands it to n8n.
 */
export function earlierAnswerRun(burst = false): INodeExecutionData {
	const messages = [
		personMessage(ONE.id, ONE.text, ONE.secondsBefore),
		...(burst ? [personMessage('msg-two', '2', ONE.secondsBefore - 5)] : []),
	];
	const envelope: EventEnvelope = {
		id: burst ? 'evt-two' : 'evt-one',
		type: 'message.received',
		created_at: new Date(HELLO_AT - (ONE.secondsBefore - (burst ? 5.2 : 0.2)) * 1000).toISOString(),
		api_version: '2026-01-01',
		account_id: 'acc-1',
		data: { message: messages[messages.length - 1] },
	};
	const json = turnItemJson(envelope, {
		run: true,
		...(burst ? { messages, closedBy: 'quiet_window' as const } : {}),
		waitingQuestion: null,
		answerOffers: [
			{
				question_id: ONE.question,
				link: linkOf(ONE.execution),
				message_ids: messages.map((message) => String(message.id)),
			},
		],
	});
	return { json };
}

/** How the test answers a question's link. */
export type Link = (options: IHttpRequestOptions) => Promise<{ statusCode: number; body: unknown }>;

/** n8n refusing an execution that no longer waits (answered by its link, or its wait limit reached). */
export const notWaiting = async () => ({
	statusCode: 409,
	body: { message: 'The execution "7" is not waiting' },
});

/** The Send and Wait node's own 503: it could not look up its question or read the chat in time. */
export const nodeCouldNotRead = async () => ({
	statusCode: 503,
	body: { answered: false, unchecked: 'the chat could not be read in time' },
});

/** The offer's request timed out: n8n never answered within the trigger's 5 s. */
export const neverAnswers: Link = async (options) =>
	await new Promise((_, reject) =>
		setTimeout(
			() => reject(new Error(`timeout of ${String(options.timeout)}ms exceeded`)),
			options.timeout ?? 5000,
		),
	);

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

/** The message ids every item of a run passes on. */
export const ranIds = (outputs: INodeExecutionData[][]): string[] =>
	outputs
		.flat()
		.flatMap((item) =>
			Array.isArray(item.json.message_ids)
				? item.json.message_ids.map(String)
				: [String(item.json.message_id)],
		);

/**
 * One run's first step to its end on the fake clock, its claim's writes again included (claimStore.ts):
 * the messages it passes on.
 */
export async function stepToEnd(
	workflow: string,
	item: INodeExecutionData,
	link: Link,
): Promise<string[]> {
	const run = claimRun(firstStepContext(workflow, item, link), TRIGGER_CLAIMANT, 1);
	await vi.runAllTimersAsync();
	const ran = ranIds(await run);
	await vi.advanceTimersByTimeAsync(Math.max(...CLAIM_RECHECKS_MS));
	return ran;
}

/**
 * The earlier answer's own run (earlierAnswerRun: the "1", or with `burst` the "1" "2"), and
 * "hello"'s run, which offers the "1" again, started `afterMs` after it; both to their end: the
 * messages they pass on, sorted.
 */
export async function earlierThenHello(
	workflow: string,
	link: Link,
	afterMs: number,
	burst = false,
): Promise<string[]> {
	const original = claimRun(
		firstStepContext(workflow, earlierAnswerRun(burst), link),
		TRIGGER_CLAIMANT,
		1,
	);
	await vi.advanceTimersByTimeAsync(afterMs);
	const hello = claimRun(firstStepContext(workflow, helloRun(), link), TRIGGER_CLAIMANT, 1);
	await vi.runAllTimersAsync();
	return [...ranIds(await original), ...ranIds(await hello)].sort();
}
