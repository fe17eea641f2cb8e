import type { IDataObject } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DEMO, SandboxClock } from '../../../../sandbox';
import { createIds } from '../../../../sandbox/ids';
import { FAULTS, startChaosProxy, type Fault } from '../../../../support/chaosProxy';
import { startKeyTrap, type KeyTrap } from '../../../../support/keyTrap';
import { templateSendParameters, useHarness } from '../../harness';

/*
 * Acceptance for "nothing sent twice, nothing lost, nothing leaked": 1,000 sends through the
 * action node in n8n's WorkflowExecute, with our own chaos proxy (not the sandbox's fault
 * injection) between the node and the sandbox dealing a seeded random fault to a quarter of all
 * requests: resets before forwarding, after forwarding and mid-body, HTML 502 and 200, truncated
 * JSON, empty and null bodies, 302/307 to another local port, stalls and slow-drip answers. Runs as parallel executions
 * sharing the key, as n8n does, each paced to its share of the write limit.
 */

const SPEED = 60;
const SENDS = 1_000;
const EXECUTIONS = 10;
const FAULT_RATE = 0.25;
const SEED = 20261123;

/** The codes a failed item may carry: every one of them is a decision, none a raw error. */
const TYPED_CODES = new Set([
	'connection_error', 'connection_refused', 'response_interrupted', 'timeout', 'invalid_response', 'unexpected_redirect',
	'outcome_unknown', 'outcome_uncertain', 'rate_limited', 'tool_error', 'http_502',
]);

const h = useHarness({ clock: new SandboxClock({ start: Date.UTC(2026, 9, 1, 8, 0, 0), speed: SPEED }) }, { resetEach: false });
let trap: KeyTrap;

beforeAll(async () => {
	trap = await startKeyTrap([h.sandbox.keys.owner]);
});
afterAll(async () => {
	await trap?.stop();
});

const phoneOf = (index: number) => `4915200${String(index).padStart(5, '0')}`;

const parameters = templateSendParameters({
	timeoutSeconds: 0.5,
	// One execution's share of the key's 120 writes and 600 reads per (sandbox) minute.
	rateLimitBudget: { budget: { write: 120 / EXECUTIONS, read: 600 / EXECUTIONS, windowSeconds: 60 / SPEED } },
});

interface Scenario {
	sends: number;
	faultRate: number;
	seed: number;
	/** First phone index, so scenarios in one sandbox never share a recipient. */
	from: number;
	/** Recipients whose every send meets a fault that does not reach the service; outcome checks get through. */
	doomed?: ReadonlySet<string>;
}

/** Runs `sends` through a fresh chaos proxy and counts what the sandbox holds against what the items say. */
async function runScenario({ sends, faultRate, seed, from, doomed = new Set() }: Scenario) {
	const { random } = createIds(seed);
	const anyFault = () => FAULTS[Math.floor(random() * FAULTS.length)];
	const unforwarded = ['resetBeforeForward', 'html200', 'redirect302', 'redirect307'] as const;
	const isDoomed = (body: string) => [...doomed].some((phone) => body.includes(`"phoneNumber":"${phone}"`));
	const proxy = await startChaosProxy({
		target: h.sandbox.url,
		redirectTo: trap.url,
		choose: ({ body }) => {
			if (isDoomed(body)) return unforwarded[Math.floor(random() * unforwarded.length)];
			return random() < faultRate ? anyFault() : 'pass';
		},
	});
	h.engine.credentialsHelper.set('messagingAutomationApi', { apiKey: h.sandbox.keys.owner, baseUrl: proxy.url, authScheme: 'bearer' });
	const items = Array.from({ length: sends }, (_, index) => ({ phone: phoneOf(from + index), name: `Customer ${index}`, order: 9000 + index }));
	const share = sends / EXECUTIONS;
	try {
		const runs = await Promise.all(
			Array.from({ length: EXECUTIONS }, (_, run) => h.run({ parameters, continueOnFail: true }, items.slice(run * share, (run + 1) * share))),
		);
		const outputs = runs.flatMap((run) => run.json);
		const sent = h.sandbox.state.accounts.get(DEMO.accountId)?.messages.filter((message) => message.fromMe && message.channel === 'business') ?? [];
		const effects = new Map<string, string[]>();
		for (const { to, id } of sent) if (to) effects.set(to, [...(effects.get(to) ?? []), id]);

		const counts = { writes: sends, succeeded: 0, failedNotDone: 0, failedUnknown: 0, duplicates: 0, lost: 0, falseSuccesses: 0, rawErrors: 0, silentFailures: 0, keysAtOtherPort: 0, requestsAtOtherPort: 0 };
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
			if (error.actionTaken === 'unknown' && typeof error.idempotencyKey === 'string') counts.failedUnknown++;
			else if (error.actionTaken === 'no') {
				counts.failedNotDone++;
				// Said "not done" while the message exists: the user would resend it.
				if (ids.length > 0) counts.lost++;
			} else counts.silentFailures++;
		});
		counts.keysAtOtherPort = trap.keyed;
		counts.requestsAtOtherPort = trap.requests;
		const dealt = Object.fromEntries(Object.entries(proxy.counts).filter(([, count]) => count > 0)) as Record<Fault, number>;
		console.log(`chaos proxy, ${sends} sends at fault rate ${faultRate}: ${JSON.stringify(counts)}\nfaults dealt: ${JSON.stringify(dealt)}`);
		expect(outputs).toHaveLength(sends);
		return { counts, dealt };
	} finally {
		await proxy.stop();
	}
}

const CLEAN = { duplicates: 0, lost: 0, falseSuccesses: 0, rawErrors: 0, silentFailures: 0, keysAtOtherPort: 0, requestsAtOtherPort: 0 };

describe('sends through a chaos proxy', () => {
	it(`${SENDS} sends, a quarter of all requests faulty: 0 duplicates, 0 lost, 0 false successes, 0 raw errors, 0 keys at the other port`, async () => {
		const { counts, dealt } = await runScenario({ sends: SENDS, faultRate: FAULT_RATE, seed: SEED, from: 0 });
		expect(counts).toMatchObject(CLEAN);
		// The run really met every fault.
		for (const fault of FAULTS) expect(dealt[fault]).toBeGreaterThan(10);
		expect(counts.succeeded).toBeGreaterThan(SENDS * 0.95);
		// Every stalled or dripping request waits out the 0.5 s time-out before its retry.
	}, 300_000);

	it('sends that never get a clean answer fail saying it is unknown whether they went out: get_operation said no, the resends could not tell', async () => {
		const doomed = new Set([phoneOf(50_001), phoneOf(50_004), phoneOf(50_007)]);
		const { counts } = await runScenario({ sends: EXECUTIONS, faultRate: 0, seed: SEED + 1, from: 50_000, doomed });
		expect(counts).toMatchObject({ ...CLEAN, succeeded: EXECUTIONS - doomed.size, failedUnknown: doomed.size });
	});
});
