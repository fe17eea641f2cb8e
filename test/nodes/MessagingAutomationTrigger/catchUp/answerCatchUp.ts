import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { N8nPollHost } from '../../../support/n8nPoll';
import type { N8nWebhookHost } from '../../../support/n8nWebhook';
import { entryOf, processedRecords } from '../../../support/processedData';
import { useRealQuestions, type RealQuestions } from '../answers/realQuestions';
import { catchUpBeside, quickGrouping } from './catchUpFixtures';

/*
 * The Catch-Up poll beside a trigger with Pass Answers on, its questions asked by the real Send and
 * Wait node (realQuestions.ts): for the tests of the poll's answer bursts (chatCatchUp.test.ts and
 * the reviews of it).
 */

const MINUTE = 60_000;

export interface AnswerCatchUp extends RealQuestions {
	/**
	 * The trigger (grouped, a 0.4 s quiet window, `extra` over that) and the poll beside it, its
	 * links where the stand-in listens; `beforeActivation` sees the poll before its activation.
	 */
	start: (
		extra?: INodeParameters,
		beforeActivation?: (poll: N8nPollHost) => void,
	) => Promise<{ trigger: N8nWebhookHost; poll: N8nPollHost }>;
	/** Claims as a run of the trigger ('trigger-1' in 'wf-test') made them, n8n stopping right after. */
	claimedBefore: (keys: string[]) => void;
	/** Two polls four minutes on: the chat is old enough to read, and the run the first emits has ended. */
	pollLater: (poll: N8nPollHost) => Promise<void>;
	/** The texts the poll's runs passed on to the bot. */
	passedOn: (poll: N8nPollHost) => string[];
	/** The texts the poll's runs passed on to Paused Chats (Human Takeover). */
	toPeople: (poll: N8nPollHost) => string[];
}

const textsOf = (runs: INodeExecutionData[][]) =>
	runs.flatMap((items) => items.map((item) => item.json.text as string));

export function useAnswerCatchUp(): AnswerCatchUp {
	const questions = useRealQuestions();
	const { h } = questions;
	return {
		...questions,
		start: async (extra = {}, beforeActivation) => {
			const trigger = await questions.activeTrigger({
				...quickGrouping,
				quietWindowSeconds: 0.4,
				...extra,
			});
			const poll = await catchUpBeside(
				h.sandbox,
				trigger,
				h.sandbox.keys.owner,
				`${new URL(String(trigger.waitingBaseUrl)).origin}/webhook-waiting`,
			);
			beforeActivation?.(poll);
			await poll.activate();
			return { trigger, poll };
		},
		claimedBefore: (keys) => {
			const record = processedRecords().get('wf-test/') ?? [];
			processedRecords().set('wf-test/', [
				...record,
				...keys.map((key) => entryOf(`trigger-1|${key}`)),
			]);
		},
		pollLater: async (poll) => {
			h.sandbox.clock.advance(4 * MINUTE);
			await poll.poll();
			await poll.poll();
		},
		passedOn: (poll) => textsOf(poll.executions),
		toPeople: (poll) => textsOf(poll.paused),
	};
}
