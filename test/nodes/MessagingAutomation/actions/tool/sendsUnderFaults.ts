import type { IDataObject } from 'n8n-workflow';
import { afterAll, beforeAll, expect } from 'vitest';

import { DEMO, SandboxClock } from '../../../../sandbox';
import { createIds } from '../../../../sandbox/ids';
import { FAULTS, startChaosProxy, type Fault } from '../../../../support/chaosProxy';
import { startKeyTrap, type KeyTrap } from '../../../../support/keyTrap';
import { templateSendParameters, useHarness, type Harness } from '../../harness';

/*
 * Runs of many sends under faults, for guardedCall.test.ts and guardedCall.chaos.test.ts (short runs in
 * `npm test`) and guardedCall.soak.test.ts (the long acceptance runs): the same checks at any size.
 */

/** A minute of the sandbox passes in a second, so the 120 writes per minute do not slow a run. */
export const SPEED = 60;
const START = Date.UTC(2026, 9, 1, 8, 0, 0);

/** A sandbox for the whole file (not reset between tests) whose clock runs at SPEED. */
export const useFastHarness = (): Harness =>
	useHarness({ clock: new SandboxClock({ start: START, speed: SPEED }) }, { resetEach: false });

// ---- The sandbox's own faults, dealt in a fixed cycle to one execution ------------------------

/** Faults hit the next calls in order; zero-delay entries let some calls through in between. */
const PASS = { kind: 'delay', delayMs: 0 } as const;
const FAULT_CYCLE = [
	{ kind: 'dropAfterCommit' },
	PASS,
	{ kind: 'toolError503' },
	PASS,
	{ kind: 'delay', delayMs: 1_500 },
	PASS,
	{ kind: 'outcomeUnknown', commit: true },
	PASS,
	{ kind: 'outcomeUnknown', commit: false },
	PASS,
	PASS,
] as const;

/**
 * `sends` template sends in one execution while `rounds` rounds of FAULT_CYCLE hit send_message:
 * every item must end with its message sent once and reported with its real id. Each round adds
 * at least three resends, one to two outcome checks and one confirmed outcome.
 */
export async function expectExactlyOnceUnderFaults(
	h: Harness,
	{ sends, rounds }: { sends: number; rounds: number },
): Promise<void> {
	const phoneOf = (index: number) => `4915100${String(index).padStart(5, '0')}`;
	const parameters = templateSendParameters({
		timeoutSeconds: 0.5,
		rateLimitBudget: { budget: { windowSeconds: 60 / SPEED } },
	});
	for (let round = 0; round < rounds; round++) {
		for (const fault of FAULT_CYCLE) h.sandbox.faults.add({ tool: 'send_message', ...fault });
	}
	const items = Array.from({ length: sends }, (_, index) => ({
		phone: phoneOf(index),
		name: `Customer ${index}`,
		order: 5000 + index,
	}));

	const result = await h.run({ parameters, continueOnFail: true }, items);

	expect(result.error).toBeUndefined();
	expect(result.json.filter((json) => json.error)).toEqual([]);
	const sent =
		h.sandbox.state.accounts
			.get(DEMO.accountId)
			?.messages.filter((message) => message.fromMe && message.channel === 'business') ?? [];
	const byPhone = new Map(sent.map((message) => [message.to, message]));
	// zero duplicates, zero lost
	expect(sent).toHaveLength(sends);
	expect(byPhone.size).toBe(sends);
	// each item reports the message that was really sent for it
	result.json.forEach((json, index) => {
		expect(json.message_id).toBe(byPhone.get(phoneOf(index))?.id);
	});
	expect(result.output.map((item) => item.pairedItem)).toEqual(items.map((_, item) => ({ item })));
	// every retry kept its item's key: one key per message, never a second key for an item
	const sendCalls = result.calls.filter((call) => call.tool === 'send_message');
	const keysPerPhone = new Map<string, Set<string | null>>();
	for (const call of sendCalls) {
		const phone = (call.input as { phoneNumber: string }).phoneNumber;
		keysPerPhone.set(phone, (keysPerPhone.get(phone) ?? new Set()).add(call.idempotencyKey));
	}
	expect([...keysPerPhone.values()].every((keys) => keys.size === 1)).toBe(true);
	// the faults really happened, and the uncertain ones were checked, not guessed
	expect(sendCalls.length).toBeGreaterThan(sends + Math.ceil((rounds * 10) / 3));
	expect(sendCalls.some((call) => call.replayed)).toBe(true);
	expect(
		result.calls.filter((call) => call.tool === 'get_operation').length,
	).toBeGreaterThanOrEqual(Math.ceil((rounds * 5) / 3));
	expect(result.calls.filter((call) => call.errorCode === 'rate_limited')).toEqual([]);
	const confirmed = result.json.filter((json) => json.outcomeCheck);
	expect(confirmed.length).toBeGreaterThanOrEqual(Math.ceil((rounds * 5) / 6));
}

// ---- Our chaos proxy between the node and the sandbox, dealing seeded random faults -------------

/** Parallel executions sharing the key, as n8n runs them, each paced to its share of the write limit. */
export const EXECUTIONS = 10;

/** The codes a failed item may carry: every one of them is a decision, none a raw error. */
const TYPED_CODES = new Set([
	'connection_error',
	'connection_refused',
	'response_interrupted',
	'timeout',
	'invalid_response',
	'incomplete_response',
	'unexpected_redirect',
	'outcome_unknown',
	'outcome_uncertain',
	'rate_limited',
	'tool_error',
	'http_502',
]);

/** What must be zero after any chaos run. */
export const CLEAN = {
	duplicates: 0,
	lost: 0,
	falseSuccesses: 0,
	rawErrors: 0,
	silentFailures: 0,
	keysAtOtherPort: 0,
	requestsAtOtherPort: 0,
};

export const chaosPhone = (index: number) => `4915200${String(index).padStart(5, '0')}`;

export interface ChaosScenario {
	sends: number;
	faultRate: number;
	seed: number;
	/** First phone index, so scenarios in one sandbox never share a recipient. */
	from: number;
	/** Recipients whose every send meets a fault that does not reach the service; outcome checks get through. */
	doomed?: ReadonlySet<string>;
	/** Faults in turn instead of at random: a short run meets each one equally often, whatever the timing. */
	inTurn?: boolean;
}

export interface ChaosOutcome {
	counts: typeof CLEAN & {
		writes: number;
		succeeded: number;
		failedNotDone: number;
		failedUnknown: number;
	};
	dealt: Partial<Record<Fault, number>>;
}

/** A fast harness with a key trap on another port, and `run` for one chaos scenario at a time. */
export function useChaosRun(): { h: Harness; run(scenario: ChaosScenario): Promise<ChaosOutcome> } {
	const h = useFastHarness();
	let trap: KeyTrap;
	beforeAll(async () => {
		trap = await startKeyTrap([h.sandbox.keys.owner]);
	});
	afterAll(async () => {
		await trap?.stop();
	});
	return { h, run: async (scenario) => await runChaos(h, trap, scenario) };
}

/** Runs `sends` through a fresh chaos proxy and counts what the sandbox holds against what the items say. */
async function runChaos(
	h: Harness,
	trap: KeyTrap,
	{ sends, faultRate, seed, from, doomed = new Set(), inTurn = false }: ChaosScenario,
): Promise<ChaosOutcome> {
	const { random } = createIds(seed);
	let turn = 0;
	const anyFault = () =>
		FAULTS[inTurn ? turn++ % FAULTS.length : Math.floor(random() * FAULTS.length)];
	const unforwarded = ['resetBeforeForward', 'html200', 'redirect302', 'redirect307'] as const;
	const isDoomed = (body: string) =>
		[...doomed].some((phone) => body.includes(`"phoneNumber":"${phone}"`));
	const proxy = await startChaosProxy({
		target: h.sandbox.url,
		redirectTo: trap.url,
		choose: ({ body }) => {
			if (isDoomed(body)) return unforwarded[Math.floor(random() * unforwarded.length)];
			return random() < faultRate ? anyFault() : 'pass';
		},
	});
	h.engine.credentialsHelper.set('messagingAutomationApi', {
		apiKey: h.sandbox.keys.owner,
		baseUrl: proxy.url,
		authScheme: 'bearer',
	});
	const parameters = templateSendParameters({
		timeoutSeconds: 0.5,
		// One execution's share of the key's 120 writes and 600 reads per (sandbox) minute.
		rateLimitBudget: {
			budget: { write: 120 / EXECUTIONS, read: 600 / EXECUTIONS, windowSeconds: 60 / SPEED },
		},
	});
	const items = Array.from({ length: sends }, (_, index) => ({
		phone: chaosPhone(from + index),
		name: `Customer ${index}`,
		order: 9000 + index,
	}));
	const share = sends / EXECUTIONS;
	try {
		const runs = await Promise.all(
			Array.from({ length: EXECUTIONS }, (_, run) =>
				h.run({ parameters, continueOnFail: true }, items.slice(run * share, (run + 1) * share)),
			),
		);
		const outputs = runs.flatMap((run) => run.json);
		const sent =
			h.sandbox.state.accounts
				.get(DEMO.accountId)
				?.messages.filter((message) => message.fromMe && message.channel === 'business') ?? [];
		const effects = new Map<string, string[]>();
		for (const { to, id } of sent) if (to) effects.set(to, [...(effects.get(to) ?? []), id]);

		const counts = { writes: sends, succeeded: 0, failedNotDone: 0, failedUnknown: 0, ...CLEAN };
		items.forEach((item, index) => {
			const json = outputs[index] as IDataObject | undefined;
			const ids = effects.get(item.phone) ?? [];
			counts.duplicates += Math.max(0, ids.length - 1);
			if (!json) return void counts.lost++;
			const error = json.error as IDataObject | undefined;
			if (!error) {
				counts.succeeded++;
				if (ids.length === 0 || json.message_id !== ids[0]) counts.falseSuccesses++;
				return;
			}
			if (typeof error.code !== 'string' || !TYPED_CODES.has(error.code)) counts.rawErrors++;
			// "Unknown" is only useful with the key that lets get_operation, or a rerun, settle it.
			if (error.actionTaken === 'unknown' && typeof error.idempotencyKey === 'string')
				counts.failedUnknown++;
			else if (error.actionTaken === 'no') {
				counts.failedNotDone++;
				// Said "not done" while the message exists: the user would resend it.
				if (ids.length > 0) counts.lost++;
			} else counts.silentFailures++;
		});
		counts.keysAtOtherPort = trap.keyed;
		counts.requestsAtOtherPort = trap.requests;
		const dealt = Object.fromEntries(
			Object.entries(proxy.counts).filter(([, count]) => count > 0),
		) as Partial<Record<Fault, number>>;
		console.log(
			`chaos proxy, ${sends} sends at fault rate ${faultRate}: ${JSON.stringify(counts)}\nfaults dealt: ${JSON.stringify(dealt)}`,
		);
		expect(outputs).toHaveLength(sends);
		return { counts, dealt };
	} finally {
		await proxy.stop();
	}
}
