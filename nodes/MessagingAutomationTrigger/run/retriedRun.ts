import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { passAnswers } from '../answers/answerPass';
import { holdForRetry } from '../answers/answerReoffer';
import { recordRetried, type Claimant } from './claimStore';
import { markEndedHere } from './executionMarks';

/**
 * n8n's Retry of a run whose first step failed or stopped: it passes on all it holds, records its
 * messages as run (recordRetried) and holds the offers it makes again (answerReoffer.ts).
 */
export async function retriedRun(
	context: IExecuteFunctions,
	outputs: INodeExecutionData[][],
	keys: readonly string[],
	claimant: Claimant,
): Promise<INodeExecutionData[][]> {
	await recordRetried(context, keys, claimant);
	const held = await holdForRetry(context, outputs.flat(), claimant);
	// Not held (the store failed): its offers claim nothing, as a test run's.
	const holder = held.ids.size > 0 ? claimant : undefined;
	const { outputs: passed, answered } = await passAnswers(
		context,
		outputs,
		undefined,
		holder,
		held,
	);
	markEndedHere(context, passed, answered, 'answers another run offers or ended');
	return passed;
}
