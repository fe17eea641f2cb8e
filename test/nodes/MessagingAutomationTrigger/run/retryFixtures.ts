import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { expect, vi } from 'vitest';

import { claimRun } from '../../../../nodes/MessagingAutomationTrigger/run/runClaim';
import {
	chatMessage,
	earlierAnswerRun,
	firstStepContext,
	helloRun,
	type Link,
	offeredIds,
	ranIds,
	TRIGGER_CLAIMANT,
	useStoreOnFakeTimers,
} from './firstStepContext';

/*
 * The trigger's first step in the modes n8n runs it in besides a delivery's (a Retry), and
 * cancelled by n8n, for the answer reviews (simulator/review8*.test.ts).
 */

/** The node answers that the messages are no answer to its question (it still waits). */
export const refusesAnswer = async () => ({ statusCode: 200, body: { answered: false } });

/** n8n's 502 before the node: no verdict, and the node may have resumed. */
export const badGateway = async () => ({
	statusCode: 502,
	body: { message: 'Bad Gateway' },
});

export interface StepOptions {
	/** n8n cancels the execution when this aborts. */
	cancel?: AbortController;
	/** The execution's mode ('retry': n8n's Retry); a delivery's ('webhook') by default. */
	mode?: string;
}

/** The step's context for `item` in `workflow`, in `mode`, that n8n can cancel with `cancel`. */
export function stepOf(
	workflow: string,
	item: INodeExecutionData,
	link: Link,
	options: StepOptions = {},
): IExecuteFunctions {
	return Object.assign(firstStepContext(workflow, item, link), {
		...(options.cancel ? { getExecutionCancelSignal: () => options.cancel!.signal } : {}),
		...(options.mode ? { getMode: () => options.mode } : {}),
	});
}

/** A step to its end on the fake clock: what it passes on (sorted), or its error's message. */
export async function runOf(context: IExecuteFunctions): Promise<string[] | string> {
	const run = claimRun(context, TRIGGER_CLAIMANT, 1).catch((error: Error) => error.message);
	await vi.runAllTimersAsync();
	const outcome = await run;
	return typeof outcome === 'string' ? outcome : ranIds(outcome).sort();
}

/** n8n's Retry of the execution of `item`, to its end. */
export const retryOf = async (
	workflow: string,
	item: INodeExecutionData,
	link: Link,
	contextOf: typeof stepOf = stepOf,
) => await runOf(contextOf(workflow, item, link, { mode: 'retry' }));

/** "why?" then the answers `answers`, started by "why?"'s delivery (a carried start), all offered to q-1. */
export function carriedBurst(answers: Array<[string, string]>): INodeExecutionData {
	const messages = [
		chatMessage('msg-why', 'why?', 1),
		...answers.map(([id, text], index) => chatMessage(id, text, index + 2)),
	];
	const offer = earlierAnswerRun().json.answer_offers as Array<{ message_ids: string[] }>;
	const ids = messages.map((message) => message.id);
	return {
		json: {
			event_type: 'message.received',
			event_id: 'evt-why',
			conversation_id: 'conv-1',
			message_id: 'msg-why',
			data: { message: { id: 'msg-why' } },
			text: messages.map((message) => message.text).join('\n'),
			messages,
			message_ids: ids,
			burst: { message_count: ids.length, closed_by: 'quiet' },
			answer_offers: [{ ...offer[0], message_ids: ids.slice(1) }],
		},
	};
}

/** "ok" then "hello", started by "ok"'s delivery (a carried start), the earlier "1" offered again. */
export function carriedHello(): INodeExecutionData {
	const json = helloRun({ grouped: true }).json;
	const ok = { ...chatMessage('msg-ok', 'ok', 1), timestamp: '2026-11-28T10:01:29.000Z' };
	return {
		json: {
			...json,
			event_id: 'evt-ok',
			message_id: 'msg-ok',
			data: { message: { id: 'msg-ok' } },
			messages: [ok, ...(json.messages as unknown[])],
			message_ids: ['msg-ok', 'msg-hello'],
		},
	};
}

/**
 * The Retry reviews' steps with every offer they make counted (`offers`, emptied before each test,
 * on n8n's store and fake timers), and the "1"'s own run stopped by n8n after its first try.
 */
export function useCountedOffers() {
	const offers: string[][] = [];
	useStoreOnFakeTimers(() => {
		offers.length = 0;
	});
	const counted =
		(link: Link): Link =>
		async (options) => {
			offers.push(offeredIds(options));
			return await link(options);
		};
	const countedStepOf = (
		workflow: string,
		item: INodeExecutionData,
		link: Link,
		options?: StepOptions,
	) => stepOf(workflow, item, counted(link), options);
	return {
		offers,
		/** `link` with its offers counted. */
		counted,
		stepOf: countedStepOf,
		retryOf: async (workflow: string, item: INodeExecutionData, link: Link) =>
			await retryOf(workflow, item, link, countedStepOf),
		/** The "1"'s own run, whose first try gets `first`; n8n stops (or cancels) it in the pause after. */
		firstRunStopsAfter: async (workflow: string, first: Link): Promise<void> => {
			const cancel = new AbortController();
			const link: Link = async (options) => {
				setTimeout(() => cancel.abort(), 1000);
				return await first(options);
			};
			expect(await runOf(countedStepOf(workflow, earlierAnswerRun(), link, { cancel }))).toEqual(
				[],
			);
		},
	};
}
