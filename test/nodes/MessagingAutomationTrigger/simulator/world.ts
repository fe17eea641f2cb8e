/**
 * Runs one case: the service saves and delivers the planned messages on the virtual clock, each
 * attempt to the process the case routes it to, retried on the spec's schedule when it is not
 * answered 2xx within the ten-second time-out; processes stop and come back with their memory
 * gone; the clocks skew and step. What happened is returned for the invariants.
 */
import type { IDataObject } from 'n8n-workflow';

import { PROBE_GIVE_UP_MS } from '../../../../nodes/MessagingAutomationTrigger/catchUp/probePatience';
import { CATCH_UP_AFTER_MS } from '../../../../nodes/shared/conversation/catchUp';

import { N8nProcess, type RecordedRun, type SharedWorld } from './n8nProcess';
import { ownUrlSpan, type OwnUrlFailed } from './ownUrl';
import { CatchUpPoller, POLL_EVERY_MS } from './pollProcess';
import type { ProcessPool } from './processPool';
import {
	ownMessages,
	plannedMessages,
	type Case,
	type OwnMessage,
	type PlannedMessage,
} from './scenario';
import { RECEIVER_TIMEOUT_MS, RETRY_SCHEDULE_MS, SECRET, ServiceModel } from './service';
import { expectedAnswers, plannedQuestions, questionMessages } from './questions';
import { trace, traceCase } from './trace';
import { pausedBeforeMessage, personText, takeoverParameters } from './takeover';
import { seedRandom, VirtualTime } from './virtualTime';
import { WaitingExecutions, type Resume } from './waitingExecutions';

/**
 * How long past its last first delivery a case may run: past the service's last retry, at the end
 * of its schedule with the largest jitter and its time-out (spec, Delivery 2: nine attempts, then
 * the delivery is failed), so that a chain still open at the end is one the service gave up on.
 */
const HORIZON_AFTER_MS =
	RETRY_SCHEDULE_MS.reduce((sum, delay) => sum + delay * 1.2 + RECEIVER_TIMEOUT_MS, 0) + 60_000;

export interface AttemptLog {
	message: string;
	chain: number;
	attempt: number;
	process: string;
	sentAt: number;
	/** Undefined: never answered (the process stopped, or it held the delivery past the time-out). */
	status?: number;
	answeredAt?: number;
}

export interface Outcome {
	messages: PlannedMessage[];
	own: OwnMessage[];
	runs: RecordedRun[];
	attempts: AttemptLog[];
	reads: ServiceModel['reads'];
	/** Delivery chains still not answered 2xx when the case ended. */
	unsettled: string[];
	answeredUnrecorded: string[][];
	incarnations: number;
	/** Pass Answers: executions resumed, the answers the rule expects (message → question), look-ups. */
	resumes: Resume[];
	expected: Map<string, string>;
	/** Question ids by execution. */
	questionOf: Map<string, string>;
	statusLookups: number;
	/** The Catch-Up poll's: listings, reads of chats, and what it threw. */
	catchUp: { listings: number; reads: number; errors: string[] };
	/** Requests to n8n's own waiting webhooks its URL failed (ownUrl.ts). */
	ownUrlFailures?: OwnUrlFailed[];
}

/** How long before a case begins its trigger was activated (on the host's clock, skewed up to a minute). */
const ACTIVATED_BEFORE_MS = 10 * 60_000;

let caseNumber = 0;

export function parametersOf(c: Case): IDataObject {
	return {
		events: ['message.received'],
		registration: 'dashboard',
		signingSecret: SECRET,
		groupQuickMessages: true,
		quietWindowSeconds: c.quietMs / 1000,
		longestWaitSeconds: c.longestMs / 1000,
		options: { deduplicate: c.dedupe },
		answersToSendAndWait: c.answers !== undefined,
		...takeoverParameters(c.takeover),
	};
}

export async function runCase(c: Case, pool: ProcessPool): Promise<Outcome> {
	const restoreRandom = seedRandom(JSON.stringify(c));
	try {
		return await simulateCase(c, pool);
	} finally {
		restoreRandom();
	}
}

async function simulateCase(c: Case, pool: ProcessPool): Promise<Outcome> {
	const time = new VirtualTime(c.host.skewMs, c.phaseMs);
	traceCase();
	const id = `sim${++caseNumber}`;
	const service = new ServiceModel(time, c.readFaults, c.readLatencyMs);
	const messages = plannedMessages(c);
	const start = time.serviceNow() - time.elapsed();
	for (const message of messages)
		service.messages.push({
			id: message.id,
			person: message.person,
			text: personText(c.takeover, message),
			stampedAt: start + message.stampedAt,
			savedAt: start + message.savedAt,
		});
	const questions = plannedQuestions(c, messages);
	service.messages.push(...questionMessages(c, questions, service.messages, start));
	const own: OwnMessage[] = [
		...pausedBeforeMessage(c.takeover, messages),
		...ownMessages(c, messages),
		...questions.map(({ id, person, at }) => ({ id, person, at })),
	];
	for (const message of own.filter((entry) => !entry.id.startsWith('q')))
		service.messages.push({
			id: message.id,
			person: message.person,
			text: message.text ?? 'On it',
			stampedAt: start + message.at,
			savedAt: start + message.at,
			fromMe: true,
		});
	const outages = (c.claimOutages ?? []).map((outage) => {
		const from = (messages[outage.afterMessage]?.firstAttemptAt ?? 0) + outage.delayMs;
		return [from, from + outage.forMs];
	});
	const urlSpan = ownUrlSpan(c.ownUrl, (index) => messages[index]?.firstAttemptAt ?? 0);
	const world: SharedWorld = {
		workflowId: id,
		parameters: parametersOf(c),
		// Activated well before the case: Catch Up Missed Messages (on by default) may catch up all of it.
		database: {
			staticData: { 'node:Trigger': { activatedAt: start - ACTIVATED_BEFORE_MS } },
		},
		service,
		apiKey: `key_${id}_000000`,
		recordFails: (index) => c.recordFails.includes(index),
		claimFails: () => outages.some(([from, to]) => time.elapsed() >= from && time.elapsed() < to),
		firstSteps: 0,
		stopsAfterRecording: (index) => c.stopsAfterRecording.includes(index),
		runsHandedOver: 0,
		runs: [],
		answeredUnrecorded: [],
		pollErrors: [],
		waiting: c.answers
			? new WaitingExecutions(
					service,
					c.answers.n8nLine,
					`key_${id}_000000`,
					() => time.elapsed(),
					() => (inSpan(urlSpan, time.elapsed()) ? c.ownUrl?.kind : undefined),
				)
			: undefined,
	};
	let incarnations = 0;
	const fresh = () =>
		new N8nProcess(`p${++incarnations}`, pool.take(), world, () => time.elapsed());
	const slots = Array.from({ length: c.processes }, fresh);
	if (c.catchUp) {
		// The first process polls; once stopped, n8n is back at the next poll time and activates again.
		let poller: CatchUpPoller | undefined;
		const poll = () => {
			if (!slots[0].alive) slots[0] = fresh();
			if (poller?.process === slots[0]) void poller.poll();
			else void (poller = new CatchUpPoller(slots[0], world, () => time.elapsed())).activate();
			time.at(time.elapsed() + POLL_EVERY_MS, poll);
		};
		time.at(0, poll);
	}
	// With the Catch-Up node the case goes on until its polls could read every chat, quiet long
	// enough (catchUp.ts), and the runs they emit had polls to end in.
	const lastWritten =
		Math.max(...service.messages.map((saved) => Math.max(saved.savedAt, saved.stampedAt))) - start;
	// n8n's own URL failing, the poll asks at each poll until it can, or gives up (probePatience.ts).
	const urlWait = urlSpan ? PROBE_GIVE_UP_MS + 2 * POLL_EVERY_MS : 0;
	const pollsUntil = c.catchUp
		? lastWritten + CATCH_UP_AFTER_MS + c.quietMs + 3 * POLL_EVERY_MS + urlWait
		: 0;
	const attempts: AttemptLog[] = [];
	const open = new Set<number>();
	let retries = 0;
	let routed = 0;

	const attempt = (message: PlannedMessage, chain: number, number: number) => {
		const slot = c.route[routed++ % c.route.length] % slots.length;
		if (!slots[slot].alive) slots[slot] = fresh();
		const process = slots[slot];
		trace(`attempt ${number} of ${message.id} (chain ${chain}) to ${process.name}`);
		const delivery = service.delivery(
			`evt_${id}_${message.id}`,
			service.messages[message.index],
			start + message.savedAt,
		);
		const log: AttemptLog = {
			message: message.id,
			chain,
			attempt: number,
			process: process.name,
			sentAt: time.elapsed(),
		};
		attempts.push(log);
		let decided = false;
		const decide = (ok: boolean) => {
			if (decided) return;
			decided = true;
			if (ok) return void open.delete(chain);
			if (number >= RETRY_SCHEDULE_MS.length + 1) return;
			const jitter = c.jitter[retries++ % c.jitter.length];
			const retryAt = time.elapsed() + RETRY_SCHEDULE_MS[number - 1] * (1 + jitter);
			time.at(retryAt, () => attempt(message, chain, number + 1));
		};
		void process.deliver(delivery).then((answer) => {
			if (!answer) return;
			log.status = answer.status;
			trace(`answer ${answer.status} to ${message.id} (chain ${chain}, attempt ${number})`);
			log.answeredAt = time.elapsed();
			if (log.answeredAt - log.sentAt <= RECEIVER_TIMEOUT_MS) decide(answer.status < 300);
		});
		time.at(log.sentAt + RECEIVER_TIMEOUT_MS, () => decide(false));
	};

	let chains = 0;
	const startChain = (message: PlannedMessage, at: number) => {
		const chain = chains++;
		open.add(chain);
		time.at(at, () => attempt(message, chain, 1));
	};
	for (const message of messages)
		if (!c.lost?.includes(message.index)) startChain(message, message.firstAttemptAt);
	for (const copy of c.copies) {
		const message = messages[copy.message];
		if (message) startChain(message, message.firstAttemptAt + copy.afterMs);
	}
	const after = (index: number, delayMs: number) =>
		(messages[index]?.firstAttemptAt ?? 0) + delayMs;
	for (const stop of c.stops)
		time.at(after(stop.afterMessage, stop.delayMs), () => {
			const slot = stop.process % slots.length;
			slots[slot].stop();
			slots[slot] = fresh();
		});
	if (c.host.step) {
		const { afterMessage, delayMs, ms } = c.host.step;
		time.at(after(afterMessage, delayMs), () => time.stepHost(ms));
	}
	const lastFirst = Math.max(...messages.map((message) => message.firstAttemptAt)) + 12_000;
	const horizon = lastFirst + HORIZON_AFTER_MS;
	// A run's first step may offer an answer again for minutes (answerPass.ts): the case waits for it.
	const busy = () =>
		open.size > 0 ||
		slots.some((slot) => slot.alive && slot.firstSteps > 0) ||
		time.elapsed() < pollsUntil;
	// A minute at a time while a chain may settle soon; past the service's third retry (10 min
	// apart and more), half an hour.
	const step = () => (time.elapsed() < lastFirst + 20 * 60_000 ? 60_000 : 30 * 60_000);
	while (time.elapsed() < horizon && (busy() || time.elapsed() < lastFirst))
		await time.runUntil(Math.min(horizon, time.elapsed() + step()));
	// Runs handed over in the last moments finish their first step (a claim may wait out an outage).
	const stepsBy = time.elapsed() + 60_000;
	do await time.runUntil(time.elapsed() + 1000);
	while (world.firstSteps > 0 && time.elapsed() < stepsBy);
	return {
		messages,
		own,
		runs: world.runs,
		attempts,
		reads: service.reads,
		unsettled: [...open].map(String),
		answeredUnrecorded: world.answeredUnrecorded,
		incarnations,
		resumes: world.waiting?.resumes ?? [],
		expected: expectedAnswers(messages, service.messages, questions, own),
		questionOf: new Map(questions.map((question) => [question.execution, question.id])),
		statusLookups: service.statusLookups.length,
		catchUp: {
			listings: service.listings.length,
			reads: service.pollReads.length,
			errors: world.pollErrors,
		},
		...(world.waiting?.failures.length ? { ownUrlFailures: world.waiting.failures } : {}),
	};
}

const inSpan = (span: { from: number; to: number } | undefined, at: number) =>
	span !== undefined && at >= span.from && at < span.to;
