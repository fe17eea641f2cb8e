import { sleep, type IExecuteFunctions } from 'n8n-workflow';
import { isAnswerKey } from './claimKeys';

/*
 * The run claim's store: n8n's processed-data record, which every n8n process shares and which
 * outlives restarts (runClaim.ts decides what a run claims and what it passes on).
 */

/** Claims remembered per workflow (one per message of a grouped run): far more than are handed over within the service's first retries. */
export const CLAIMS_KEPT = 5000;

/**
 * One record per workflow, not per node, its keys each the trigger's they run for
 * (`<trigger node id>|message|<id>`): the Catch-Up poll node (nodes/MessagingAutomationCatchUp)
 * claims for the trigger whose settings it follows, so a message runs once whichever node runs
 * it, and two triggers of one workflow each run it. Claims an earlier version made are not in it
 * (an upgrade forgets them).
 */
const CLAIM_SCOPE = 'workflow';

/** Whom a run claims for: the trigger's node id; `polled`: a run the Catch-Up poll emitted. */
export interface Claimant {
	trigger: string;
	polled: boolean;
}

// n8n's store reads and rewrites one record per trigger: claims made at once in one process would
// overwrite each other, so each process makes them one after another.
let claimsInFlight: Promise<unknown> = Promise.resolve();

function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
	const result = claimsInFlight.then(task, task);
	claimsInFlight = result.catch(() => undefined);
	return result;
}

/**
 * Waits between a delivered run's claim attempts: n8n's store fails for moments (a locked SQLite
 * database, a database restarting), and the run's delivery is answered already, so its first step
 * can wait 25.5 s in all (9 attempts) before it decides without the store (unclaimedRun.ts).
 * The Catch-Up poll's run tries twice at once: its next poll asks again.
 */
export const CLAIM_WAITS_MS = [100, 200, 400, 800, 1600, 3200, 6400, 12_800];

/** Records `keys` for `trigger` in one attempt: the ones no run had recorded before. */
async function record(
	context: IExecuteFunctions,
	keys: string[],
	trigger: string,
): Promise<Set<string>> {
	const prefix = `${trigger}|`;
	const { new: fresh } = await context.helpers.checkProcessedAndRecord(
		keys.map((key) => prefix + key),
		CLAIM_SCOPE,
		{ mode: 'entries', maxEntries: CLAIMS_KEPT },
	);
	return new Set(fresh.map((key) => String(key).slice(prefix.length)));
}

/**
 * n8n's Retry of a run re-runs the trigger's step: a person asked for it, so it passes on what it
 * holds, but it records its messages as run, so that no later catch-up (the person's next message,
 * the Catch-Up poll) runs them again. Not its answers' keys (`answer|<id>`): its offers hold their
 * tries and ends themselves (answerReoffer.ts holdForRetry), so no later run makes them again. One
 * attempt: a failure is logged, and the run goes on.
 */
export async function recordRetried(
	context: IExecuteFunctions,
	keys: readonly string[],
	{ trigger }: Claimant,
): Promise<void> {
	const ran = [...new Set(keys)].filter((key) => !isAnswerKey(key));
	if (ran.length === 0) return;
	try {
		await oneAtATime(async () => await record(context, ran, trigger));
	} catch (error) {
		context.logger.warn(
			`Messaging Automation Trigger: a retried run could not record its messages as run, so a later catch-up may run them again (${(error as Error).message})`,
		);
	}
}

/**
 * When after a claim it is written again. n8n's store reads the trigger's record and writes it back
 * whole, without a lock: another process (a queue-mode worker) that read it before this claim's
 * write and writes after it drops this claim's keys. Such a write follows its read by one database
 * round trip: the first write again outlasts it many times over, the second covers a worker whose
 * call waited seconds in a busy event loop or database pool (review s7, S7-4). Both come long before
 * the earliest catch-up of a message (the person's next message 3 minutes after its burst, the
 * Catch-Up poll once a chat is quiet 3 minutes) and before the service's first retry (30 s).
 */
export const CLAIM_RECHECKS_MS = [1000, 10_000];

/**
 * Claims waiting for their writes again: the run's context, and the keys (`<trigger>|<key>`) left
 * to write; the run's own takeBack takes them out.
 */
const rewriting = new Set<{ context: IExecuteFunctions; keys: Set<string> }>();

/**
 * Writes a claim's keys again at CLAIM_RECHECKS_MS, but those its run took back since (a claim
 * made only to ask, taken back at once; another run's takeBack never stops them): a key another
 * process's write dropped is back before a later run trusts the record (a catch-up would run a
 * message that ran: review s6, S6-1; a later run would offer an answer whose offer ended again:
 * review s7, S7-1). Not awaited: the run goes on at once, and which run was first is still decided
 * by the first write; a process that stops first, or a failure, leaves what the writes before did.
 */
function rewriteLater(
	context: IExecuteFunctions,
	fresh: ReadonlySet<string>,
	trigger: string,
): void {
	if (fresh.size === 0) return;
	const keys = new Set([...fresh].map((key) => `${trigger}|${key}`));
	const pending = { context, keys };
	rewriting.add(pending);
	void (async () => {
		let waited = 0;
		for (const at of CLAIM_RECHECKS_MS) {
			await sleep(at - waited);
			waited = at;
			const left = [...keys].map((key) => key.slice(trigger.length + 1));
			if (left.length === 0) return;
			const dropped = await oneAtATime(async () => await record(context, left, trigger));
			if (dropped.size > 0)
				context.logger.warn(
					`Messaging Automation Trigger: another process's write at the same moment had dropped this run's claim of ${[...dropped].join(', ')}; written again`,
				);
		}
	})()
		.catch((error: unknown) =>
			context.logger.debug(
				`Messaging Automation Trigger: a claim's write again failed (${(error as Error).message}); the first stands`,
			),
		)
		.finally(() => rewriting.delete(pending));
}

/**
 * Which of `keys` this run is the first to claim for `trigger`; undefined when the store still
 * failed: a delivered run then goes on only if no carried delivery started it, and a caught-up
 * burst never does (unclaimedRun.ts).
 */
export async function claimed(
	context: IExecuteFunctions,
	keys: string[],
	{ trigger, polled }: Claimant,
): Promise<Set<string> | undefined> {
	const attempt = async () => await record(context, keys, trigger);
	// A second attempt at once covers another process creating the trigger's record at the same moment.
	const waits = polled ? [0] : CLAIM_WAITS_MS;
	let failure: unknown;
	for (let index = 0; index <= waits.length; index++) {
		if (index > 0 && waits[index - 1] > 0) await sleep(waits[index - 1]);
		try {
			// The waits are outside the queue: this process's other claims go on meanwhile.
			const fresh = await oneAtATime(attempt);
			rewriteLater(context, fresh, trigger);
			return fresh;
		} catch (error) {
			failure = error;
		}
	}
	// What the run does then is its caller's to say (unclaimedRun.ts, afterOffers.ts: R11d-1).
	const what = polled
		? 'tried once'
		: `tried ${waits.length + 1} times over ${waits.reduce((sum, wait) => sum + wait, 0) / 1000} s`;
	context.logger.warn(
		`Messaging Automation Trigger: could not check whether this run was handed to n8n before; ${what} (${(failure as Error).message})`,
	);
	return undefined;
}

/** Takes back claims this run made only to ask (keys as `claimed` takes them); a failure keeps them. */
export async function takeBack(
	context: IExecuteFunctions,
	keys: string[],
	{ trigger }: Claimant,
): Promise<void> {
	if (keys.length === 0) return;
	for (const pending of rewriting)
		if (pending.context === context)
			for (const key of keys) pending.keys.delete(`${trigger}|${key}`);
	await oneAtATime(
		async () =>
			await context.helpers.removeProcessed(
				keys.map((key) => `${trigger}|${key}`),
				CLAIM_SCOPE,
				{ mode: 'entries', maxEntries: CLAIMS_KEPT },
			),
	).catch(() => undefined);
}

/** Whether the record has never reached CLAIMS_KEPT, so it has let go of nothing; false when n8n cannot say. */
export async function recordNeverFull(context: IExecuteFunctions): Promise<boolean> {
	try {
		const count = await context.helpers.getProcessedDataCount(CLAIM_SCOPE, {
			mode: 'entries',
			maxEntries: CLAIMS_KEPT,
		});
		return count < CLAIMS_KEPT;
	} catch {
		return false;
	}
}
