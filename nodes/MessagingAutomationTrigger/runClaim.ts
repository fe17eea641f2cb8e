import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { runIdentity } from '../shared/conversation/heldPlan';

/*
 * A run's delivery is answered by n8n once it has recorded the run (deliveryReply.ts), so n8n stopped
 * before that leaves the delivery to the service's retry and nothing is lost. The price: stopped
 * just after, or answering after the service stopped waiting, the same run is handed to n8n twice.
 * The trigger's first step of every run (its execute(), called by n8n after it recorded the run)
 * claims the run in n8n's processed-data store, which every n8n process shares and which outlives
 * restarts; a copy finds the claim and passes nothing on.
 */

/** Runs remembered per trigger: far more than are handed over within the service's first retries. */
const CLAIMS_KEPT = 2000;

/** The field of the stand-in item on output 0 when only a later output carries the run's item. */
const CARRIER_FIELD = 'messaging_automation_carrier';

/**
 * n8n's legacy execution order (v0) skips a start node whose first input is empty, and a run that
 * goes to Paused Chats only has an empty first output: a stand-in item keeps the step running.
 */
export function withCarrier(workflowData: INodeExecutionData[][]): INodeExecutionData[][] {
	if ((workflowData[0]?.length ?? 0) > 0) return workflowData;
	return [[{ json: { [CARRIER_FIELD]: true } }], ...workflowData.slice(1)];
}

/**
 * The run's identity: a grouped run's messages (whichever event closed it: a burst delivered late
 * as a whole runs once; one run again with a message saved late is a new run), else its event.
 */
function claimKey(item: INodeExecutionData | undefined): string | undefined {
	const json = item?.json;
	if (Array.isArray(json?.message_ids)) return `messages|${runIdentity(json.message_ids)}`;
	return typeof json?.event_id === 'string' ? `event|${json.event_id}` : undefined;
}

// n8n's store reads and rewrites one record per trigger: claims made at once in one process would
// overwrite each other, so each process makes them one after another.
let claimsInFlight: Promise<unknown> = Promise.resolve();

function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
	const result = claimsInFlight.then(task, task);
	claimsInFlight = result.catch(() => undefined);
	return result;
}

/** Whether this run is the first with its key; a store that fails lets the run go on (twice beats never). */
async function claimed(context: IExecuteFunctions, key: string): Promise<boolean> {
	const attempt = async () =>
		(
			await context.helpers.checkProcessedAndRecord([key], 'node', {
				mode: 'entries',
				maxEntries: CLAIMS_KEPT,
			})
		).new.length === 1;
	try {
		// A second attempt covers another process creating the trigger's record at the same moment.
		return await oneAtATime(async () => await attempt().catch(attempt));
	} catch (error) {
		context.logger.warn(
			`Messaging Automation Trigger: could not check whether this run was handed to n8n before; it runs (${(error as Error).message})`,
		);
		return true;
	}
}

/** The trigger's step in the run: its items as handed over, or nothing for a copy of a recorded run. */
export async function claimRun(context: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const outputs = context
		.getNodeOutputs()
		.map((_, index) =>
			context.getInputData(index).filter((item) => item.json[CARRIER_FIELD] !== true),
		);
	const key = claimKey(outputs.flat()[0]);
	// Only runs a delivery started: a test run, or n8n's Retry of a crashed or failed run, is asked for
	// by a person. With Deduplicate Events off, every delivery is meant to run, a resent one too.
	const claims =
		context.getMode() === 'webhook' &&
		context.getNodeParameter('options.deduplicate', 0, true) !== false;
	if (!claims || key === undefined || (await claimed(context, key))) return outputs;
	context.logger.info(
		`Messaging Automation Trigger: the run of ${key.replace('|', ' ')} was handed to n8n again after it was recorded; this copy passes nothing on`,
	);
	context.customData.set('messaging_automation', 'copy of a recorded run');
	return outputs.map(() => []);
}
