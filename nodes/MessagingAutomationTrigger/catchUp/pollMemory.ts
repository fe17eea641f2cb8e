import type { IExecuteFunctions, IPollFunctions, IRun } from 'n8n-workflow';

import { CATCH_UP_AFTER_MS } from '../../shared/conversation/catchUp';
import { forgetFailingBefore, PROBE_GIVE_UP_MS, type FailingProbes } from './probePatience';
import { pollSpanMs } from './pollTimes';
import type { CatchUpSettings } from './sharedSettings';

/*
 * What the Catch-Up poll keeps between polls. In the node's static data, `since` (the first poll
 * ever: nothing written before it is caught up) and `lastPollAt`, written only by the first poll of
 * an activation (n8n saves static data right after it, and again only when a poll emits, when the
 * whole workflow's static data it loaded at activation would overwrite what the trigger saved
 * since). Between polls of one activation, this process's memory: n8n runs an active workflow's
 * polls in one process (the leader's), which also holds the runs they emit (n8n's active
 * executions, in queue mode too). Losing it costs reads, never a run: a new activation looks back to
 * the saved `lastPollAt`.
 *
 * The floor (`lastPollAt` less the look-back: chats older were looked at) passes a chat only once
 * the poll has seen it settled: read with nothing to run, or run by a run whose first step (the
 * claim in n8n's record of runs) went through. A run whose claim failed (n8n's database) leaves its
 * chats to the next poll; until a run ends its chats wait, and hold the floor.
 */

const MINUTE = 60_000;
/**
 * A poll lists back to the previous one less this and the trigger's quiet window (lookBackOf), so a
 * chat not ready then (quiet CATCH_UP_AFTER_MS past its burst's close) is seen again: without the
 * quiet window, one of 3 minutes or more let the floor pass a chat before it was ready, and it was
 * never read (review s10b, R10b-5).
 */
export const LOOK_BACK_MS = CATCH_UP_AFTER_MS + 2 * MINUTE;

const lookBackOf = (settings: CatchUpSettings) => LOOK_BACK_MS + settings.grouping.quietMs;

type RunState = 'running' | 'recorded' | 'failed';

/**
 * Polls after which a run that has not ended is taken for failed (ten minutes at n8n's every
 * minute): n8n 1.123 never settles the promise of a run it could not start, nor of one a queue-mode
 * worker ran without saving it (review 45e, R45e-1), and a hung run would hold its chats and the
 * floor for good. Counted in polls, not time; the claim keeps a run that did go on to one run.
 */
const RUN_GIVE_UP_POLLS = 10;

/** When the trigger's endpoint was last read and its problem last reported (endpointReport.ts). */
export interface ReportMemory {
	checkedAt?: number;
	reportedAt?: number;
	/** When a failed listing was last thrown, on this process's monotonic clock (none: no listing failed). */
	listingReportedAt?: number;
}

export interface PollMemory {
	/** The n8n object of the activation these polls belong to. */
	activation: object;
	activatedAt: number;
	lastPollAt: number;
	/** The service's time at this activation's latest poll. */
	polledAt: number;
	/** Chats settled, by the newest message time they were settled at. */
	read: Map<string, number>;
	/** Chats a run took, by the newest message time they were read at, and how that run went. */
	pending: Map<string, { lastAt: number; state: RunState; polls: number }>;
	/** Possible answers the poll could not ask about, by chat and first message (probePatience.ts). */
	failingProbes: FailingProbes;
	/** How far before the previous poll a poll lists (lookBackOf), as the last poll's settings say. */
	lookBackMs: number;
	/** A listing cut short above the floor: its last page's cursor ('' the first), and when it began. */
	sweep?: { cursor: string; startedAt: number };
	report: ReportMemory;
}

const memories = new Map<string, PollMemory>();

export type PollContext = IPollFunctions | IExecuteFunctions;

export interface Window {
	now: number;
	since: number;
	/** Service time the activation's first poll ran (written before it: while inactive). */
	activatedAt: number;
	/** The first poll of this activation: it also says what it left. */
	firstOfActivation: boolean;
	/** Chats whose newest message is older than this were looked at by earlier polls. */
	listFloor: number;
	/** This activation's memory; none for a test run. */
	memory?: PollMemory;
	/** A test run's: the memory of this node's active poll in this process, read, never written. */
	seen?: PollMemory;
}

const numberOr = (value: unknown, fallback: number) =>
	typeof value === 'number' && Number.isFinite(value) ? value : fallback;

export const pollKey = (context: PollContext) =>
	`${String(context.getWorkflow().id)}/${context.getNode().id}`;

/** This activation's memory, when an earlier poll of it made one. */
export function memoryOf(context: PollContext): PollMemory | undefined {
	const memory = memories.get(pollKey(context));
	return memory?.activation === context ? memory : undefined;
}

/**
 * The poll's window. A test run (manual) keeps nothing: it looks back to the limit, never before
 * the first poll ever (`since`), and past what this node's active poll in this process looked at
 * and settled (`seen`), so it shows what the next poll would run, not what the trigger or an
 * earlier poll ran (R45b-5).
 */
export function windowOf(context: PollContext, settings: CatchUpSettings, now: number): Window {
	const data = context.getWorkflowStaticData('node');
	if (context.getMode() === 'manual') {
		const since = Math.max(now - settings.catchUpMs, numberOr(data.since, 0));
		const stored = memories.get(pollKey(context));
		const seen = stored && seenAt(stored, now, pollSpanMs(context));
		const listFloor = seen ? Math.max(since, seen.lastPollAt - seen.lookBackMs) : since;
		const test = { now, since, activatedAt: now, firstOfActivation: false, listFloor };
		return seen ? { ...test, seen } : test;
	}
	const key = pollKey(context);
	let memory = memories.get(key);
	const firstOfActivation = memory?.activation !== context;
	if (firstOfActivation) {
		const lastPollAt = memory?.lastPollAt ?? numberOr(data.lastPollAt, now);
		if (typeof data.since !== 'number') data.since = now;
		data.lastPollAt = now;
		memory = {
			activation: context,
			activatedAt: now,
			lastPollAt,
			polledAt: now,
			read: new Map(),
			pending: new Map(),
			failingProbes: new Map(),
			lookBackMs: lookBackOf(settings),
			report: {},
		};
		memories.set(key, memory);
	}
	const active = memory as PollMemory;
	active.polledAt = now;
	active.lookBackMs = lookBackOf(settings);
	settle(active);
	for (const [chat, at] of active.read)
		if (at <= active.lastPollAt - active.lookBackMs) active.read.delete(chat);
	forgetFailingBefore(active.failingProbes, now - settings.catchUpMs - PROBE_GIVE_UP_MS);
	const since = numberOr(data.since, now);
	const listFloor = Math.max(since, active.lastPollAt - active.lookBackMs);
	return {
		now,
		since,
		activatedAt: active.activatedAt,
		firstOfActivation,
		listFloor,
		memory: active,
	};
}

/**
 * Polls missed after which an activation's memory is taken for one n8n ended: n8n gives a poll node
 * no close, and a run that never reported its end would otherwise hide its chat from every test
 * run after (R11c-3). Counted in the node's Poll Times (pollTimes.ts) on the service's clock, not
 * in gaps measured: n8n's first poll is off their beat (R12-3), and an outage is no beat (R12-6).
 */
const ENDED_AFTER_POLLS = 3;

/**
 * What a test run at `now` takes from the active poll's memory: all of it while that activation
 * polls, since a run still going there runs its chat (R11d-3); once it stopped polling, its runs
 * that never ended run nothing, and their chats are read as the next activation would.
 */
function seenAt(memory: PollMemory, now: number, pollSpan: number): PollMemory {
	if (now - memory.polledAt <= ENDED_AFTER_POLLS * pollSpan) return memory;
	const ended = [...memory.pending].filter(([, run]) => run.state !== 'running');
	return { ...memory, pending: new Map(ended) };
}

/** Chats whose run went through are settled; those whose run failed, or never ended, are due again. */
function settle(memory: PollMemory): void {
	for (const [chat, run] of memory.pending) {
		if (run.state === 'running' && ++run.polls < RUN_GIVE_UP_POLLS) continue;
		if (run.state === 'recorded') memory.read.set(chat, run.lastAt);
		memory.pending.delete(chat);
	}
}

/**
 * Whether a chat needs reading at `lastAt`: not settled at it, and no run of it still going. A test
 * run reads the active poll's memory so too (seenAt).
 */
export function unsettled(memory: PollMemory | undefined, chat: string, lastAt: number): boolean {
	const run = memory?.pending.get(chat);
	// A run that went through and was not yet settled (settle) counts: a test run reads it so.
	const ran = run?.state === 'recorded' && run.lastAt === lastAt;
	return memory?.read.get(chat) !== lastAt && run?.state !== 'running' && !ran;
}

/**
 * The floor after a poll: up to `to` (the listing's start) when every chat above the old floor
 * was listed and read, never past a chat whose run the poll has not seen go through.
 */
export function moveFloor(memory: PollMemory, to: number | undefined): void {
	let next = to ?? memory.lastPollAt;
	for (const run of memory.pending.values())
		next = Math.min(next, run.lastAt + memory.lookBackMs - 1);
	memory.lastPollAt = Math.max(memory.lastPollAt, next);
}

/**
 * Whether the run's first step (the claim) ran without error: its chats are then settled. In queue
 * mode n8n may hand back the run without its steps (the job's result: the error and the last node);
 * a run n8n could not start comes back as nothing. A later step's error settles the chats too.
 */
function claimWentThrough(run: IRun | undefined, nodeName: string): boolean {
	if (!run) return false;
	const { runData, error, lastNodeExecuted } = run.data.resultData;
	const step = runData[nodeName]?.[0];
	if (step) return step.error === undefined;
	return error === undefined || (lastNodeExecuted !== undefined && lastNodeExecuted !== nodeName);
}

/**
 * The poll's run of `chats`' items: emitted with a promise of its end (n8n's donePromise), so the
 * next poll knows whether the claim went through. Until then the chats wait.
 */
export function emitTracked(
	context: IPollFunctions,
	items: Parameters<IPollFunctions['__emit']>[0],
	chats: ReadonlyMap<string, number>,
	memory: PollMemory,
): void {
	for (const [chat, lastAt] of chats)
		memory.pending.set(chat, { lastAt, state: 'running', polls: 0 });
	const done = context.helpers.createDeferredPromise<IRun | undefined>();
	const mark = (state: RunState) => {
		for (const [chat, lastAt] of chats)
			if (memory.pending.get(chat)?.lastAt === lastAt)
				memory.pending.set(chat, { lastAt, state, polls: 0 });
	};
	const nodeName = context.getNode().name;
	void done.promise.then(
		(run) => mark(claimWentThrough(run, nodeName) ? 'recorded' : 'failed'),
		() => mark('failed'),
	);
	context.__emit(items, undefined, done);
}
