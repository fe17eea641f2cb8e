import { NodeOperationError, type IPollFunctions } from 'n8n-workflow';

import { monotonicNow } from '../../shared/monotonic';
import { reasonOf } from '../../shared/conversation/reader';
import { endpointProblem } from '../../shared/webhooks/endpointProblem';
import { createNodeClient } from '../../shared/transport/nodeClient';
import type { PollContext, PollMemory } from './pollMemory';

/*
 * Seen, not silent: while a workflow is active nothing calls its trigger, so an endpoint the
 * service disabled (a 410, or 100 failures in a row over three days), paused, deleted, or whose
 * deliveries fail goes unnoticed until someone wonders why the bot is quiet. The Catch-Up poll is
 * the one part that runs on its own: it reads the trigger's endpoint (endpointProblem.ts) and says
 * what is wrong and what to do as an error of the poll.
 *
 * In n8n 2.40.7 a poll that throws after its activation's first poll becomes an error execution
 * of the workflow, with the error workflow run (PollTriggerExecutor → __emitError →
 * recordTriggerFailure): the workflow stays active, no activation error, no deactivation, and the
 * next poll runs at its time. (The activation's first poll is n8n's test: a throw there fails the
 * activation, so it never reports; the trigger's activation says it then, registration.ts. With the
 * opt-in durable scheduler, N8N_POLLER_DURABLE_CURSORS_ENABLED, a throw also backs the next poll
 * off, for a minute or so after one failure.) The poll throws only after its catch-up is emitted,
 * so a report never holds a missed message back. It reads the endpoint at most once every
 * CHECK_EVERY_MS, and reports at most once every REPORT_EVERY_MS, so a lasting problem makes one
 * error execution an hour. What it remembers lives in the activation's memory, not in static data:
 * a later poll's write would have n8n save the whole workflow's static data as loaded at activation
 * over what the trigger saved since (pollMemory.ts). After a restart it reports again at once.
 */

const MINUTE = 60_000;
/** The endpoint is read at most this often (one read; two while it is active: its deliveries). */
export const CHECK_EVERY_MS = 5 * MINUTE;
/** A lasting problem is reported at most this often. */
export const REPORT_EVERY_MS = 60 * MINUTE;

/**
 * The error to throw after this poll's catch-up, when the trigger's endpoint `endpointId` has a
 * problem and it is time to say so; undefined otherwise. `now` is the service's time.
 */
export async function endpointReport(
	context: IPollFunctions,
	memory: PollMemory,
	endpointId: string | undefined,
	now: number,
): Promise<NodeOperationError | undefined> {
	const report = memory.report;
	if (!endpointId || now - (report.checkedAt ?? -Infinity) < CHECK_EVERY_MS) return undefined;
	if (now - (report.reportedAt ?? -Infinity) < REPORT_EVERY_MS) return undefined;
	report.checkedAt = now;
	const problem = await endpointProblem(
		await createNodeClient(context, { timeoutMs: 15_000 }),
		endpointId,
	);
	if (!problem) return undefined;
	report.reportedAt = now;
	return new NodeOperationError(
		context.getNode(),
		`Events are not reaching this workflow's Messaging Automation Trigger (webhook endpoint ${endpointId})`,
		{
			description: `${problem} Meanwhile this node runs what the trigger misses, within the trigger's Max Age, once a chat has been quiet 3 minutes. This error comes back at most once an hour while the problem lasts.`,
		},
	);
}

/**
 * A poll whose listing failed (inbox consent withdrawn, the key's scope, an outage past the
 * client's retries): the error to throw, at most once every REPORT_EVERY_MS on this process's
 * clock while it lasts (review 45e, R45e-3: one error execution and error-workflow run a poll
 * before); undefined when the poll logs one line and ends instead. An activation's first poll and a
 * test run always throw: n8n shows it where it shows a failed activation, or in the editor.
 */
export function listingFailure(
	context: PollContext,
	memory: PollMemory | undefined,
	error: unknown,
): unknown {
	if (!memory || context.getMode() === 'manual') return error;
	const at = monotonicNow();
	const last = memory.report.listingReportedAt;
	if (last === undefined || at - last >= REPORT_EVERY_MS) {
		memory.report.listingReportedAt = at;
		return error;
	}
	context.logger.warn(
		`Messaging Automation Catch-Up: could not list the conversations (${reasonOf(error)}); the next poll tries again (this comes back as an error at most once an hour)`,
	);
	return undefined;
}
