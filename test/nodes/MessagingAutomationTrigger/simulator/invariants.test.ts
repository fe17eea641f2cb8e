/**
 * The invariants can fail: each rule is shown a made-up outcome that breaks it, and the bursts the
 * spec's rule draws are checked on their own.
 */
import { describe, expect, it } from 'vitest';

import { plainCase } from './cases';
import { referenceBursts, violations } from './invariants';
import { excused, LIMITS } from './knownBroken';
import { plannedMessages } from './scenario';
import type { Outcome } from './world';

const c = plainCase([300, 300]);
const messages = plannedMessages(c);

function outcome(runs: string[][], extra: Partial<Outcome> = {}): Outcome {
	return {
		messages,
		own: [],
		runs: runs.map((messageIds) => ({ process: 'p1', messageIds, passedOn: true, at: 0 })),
		attempts: messages.map((message) => ({
			message: message.id,
			chain: message.index,
			attempt: 1,
			process: 'p1',
			sentAt: message.firstAttemptAt,
			status: 200,
			answeredAt: message.firstAttemptAt + 100,
		})),
		reads: [{ at: 0, status: 200, injected: false }],
		unsettled: [],
		answeredUnrecorded: [],
		incarnations: 1,
		resumes: [],
		expected: new Map(),
		questionOf: new Map(),
		statusLookups: 0,
		catchUp: { listings: 0, reads: 0, errors: [] },
		...extra,
	};
}

const rules = (found: ReturnType<typeof violations>) => found.map((violation) => violation.rule);

describe('the reference bursts', () => {
	it('cut a chain at the quiet window, the Longest Wait and the account’s message', () => {
		const chain = plainCase([300, 6000, 300, 300], { longestMs: 500 });
		const planned = plannedMessages(chain);
		expect(referenceBursts(chain, planned)).toEqual([['m1', 'm2'], ['m3', 'm4'], ['m5']]);
		const own = [{ id: 'o1', person: 0, at: planned[0].typedAt + 100 }];
		expect(
			referenceBursts(plainCase([300, 300]), plannedMessages(plainCase([300, 300])), own),
		).toEqual([['m1'], ['m2', 'm3']]);
	});

	it("are drawn per person: another's messages between do not break a chain", () => {
		const two = plainCase([300], {
			bursts: [
				{ person: 0, pauseMs: 6000, gapsMs: [2000], offlineMs: 0, saveGapMs: 0 },
				{ person: 1, pauseMs: 6000, gapsMs: [300], offlineMs: 0, saveGapMs: 0 },
			],
		});
		const planned = plannedMessages(two);
		expect(planned.map((message) => message.typedAt)).toEqual([1000, 3000, 2000, 2300]);
		expect(referenceBursts(two, planned)).toEqual([
			['m1', 'm2'],
			['m3', 'm4'],
		]);
	});

	it('follow the timestamps the service stores, not the order of typing', () => {
		const stepped = plainCase([300, 300], {
			phone: { skewMs: 0, step: { atMessage: 2, ms: 9000 } },
		});
		expect(referenceBursts(stepped, plannedMessages(stepped))).toEqual([['m1', 'm2'], ['m3']]);
	});

	it("put the account's message with a person's timestamp after it when it was saved later, as the service lists them (seed 1128, accountWrites)", () => {
		// A phone 0.2 s ahead stamps m2 when the account writes; the service saved m2 0.2 s before.
		const ahead = plainCase([345, 300], { phone: { skewMs: 197 } });
		const planned = plannedMessages(ahead);
		const own = [{ id: 'o1', person: 0, at: planned[1].stampedAt }];
		expect(referenceBursts(ahead, planned, own)).toEqual([['m1', 'm2'], ['m3']]);
		const savedFirst = planned.map((message) => ({ ...message, savedAt: message.savedAt + 1000 }));
		expect(referenceBursts(ahead, savedFirst, own)).toEqual([['m1'], ['m2', 'm3']]);
	});
});

describe('the invariants', () => {
	it('hold for one whole run of the burst', () => {
		expect(violations(c, outcome([['m1', 'm2', 'm3']]))).toEqual([]);
	});

	it('find a message run twice, one never run, a burst split or out of order', () => {
		expect(
			rules(
				violations(
					c,
					outcome([
						['m1', 'm2', 'm3'],
						['m1', 'm2', 'm3'],
					]),
				),
			),
		).toContain('oneRun');
		expect(rules(violations(c, outcome([['m1', 'm2']])))).toEqual(['oneRun', 'wholeBurst']);
		expect(rules(violations(c, outcome([['m1'], ['m2', 'm3']])))).toEqual([
			'wholeBurst',
			'wholeBurst',
		]);
		expect(rules(violations(c, outcome([['m1', 'm3', 'm2']])))).toEqual(['wholeBurst']);
	});

	it('find a run answered first and then not recorded, a delivery never settled, too many reads, a late answer', () => {
		const whole = [['m1', 'm2', 'm3']];
		expect(rules(violations(c, outcome(whole, { answeredUnrecorded: [['m1']] })))).toEqual([
			'answeredFirst',
		]);
		expect(rules(violations(c, outcome(whole, { unsettled: ['0'] })))).toEqual(['settled']);
		const reads = Array.from({ length: 9 }, () => ({ at: 0, status: 200, injected: false }));
		expect(rules(violations(c, outcome(whole, { reads })))).toEqual(['reads']);
		const late = outcome(whole);
		late.attempts[0].status = 503;
		expect(rules(violations(c, late))).toEqual(['answeredInTime']);
	});

	it("split a burst only where a message was saved after its first run's record and a quiet window after the rest (finding C)", () => {
		const saved = (m3SavedAt: number): Outcome => {
			const late = messages.map((message) => ({ ...message }));
			late[2].savedAt = m3SavedAt;
			const split = outcome([['m1', 'm2'], ['m3']], { messages: late });
			split.runs[0].at = late[1].savedAt + 5300;
			split.runs[1].at = m3SavedAt + 5300;
			return split;
		};
		expect(violations(c, saved(messages[1].savedAt + 5400))).toEqual([]);
		// Saved before the run was recorded, or within a quiet window of the rest: it could join.
		expect(rules(violations(c, saved(messages[1].savedAt + 5200)))).toEqual([
			'wholeBurst',
			'wholeBurst',
		]);
		expect(rules(violations(c, { ...saved(messages[1].savedAt + 5400), runs: [] }))).toEqual([
			'oneRun',
			'oneRun',
			'oneRun',
		]);
	});

	it("count one read per quiet window a process sees pass, with two processes taking turns (finding B's bound)", () => {
		const turns = plainCase([1278, 1311, 1610, 1689], { quietMs: 2000, processes: 2 });
		const planned = plannedMessages(turns);
		const taking = (count: number): Outcome => ({
			...outcome([planned.map((message) => message.id)], { messages: planned }),
			attempts: planned.map((message) => ({
				message: message.id,
				chain: message.index,
				attempt: 1,
				process: `p${1 + (message.index % 2)}`,
				sentAt: message.firstAttemptAt,
				status: 200,
				answeredAt: message.firstAttemptAt + 100,
			})),
			reads: Array.from({ length: count }, () => ({ at: 0, status: 200, injected: false })),
		});
		// p1 sees three quiet windows pass (m1, m3, m5) and reads before m1's deadline (the burst
		// still open then); p2 sees two pass (m2, m4) and reads once more to see the close.
		expect(violations(turns, taking(7))).toEqual([]);
		expect(rules(violations(turns, taking(8)))).toEqual(['reads']);
	});

	it("excuse a late answer only where a phone behind or uploading has its burst's last delivery after the hold (finding C')", () => {
		const behind = plainCase([300, 300], { phone: { skewMs: -6000 } });
		const planned = plannedMessages(behind);
		const lateLast = (afterMs: number): Outcome => {
			const late = outcome([planned.map((message) => message.id)], { messages: planned });
			late.attempts = late.attempts.map((attempt, index) => ({
				...attempt,
				sentAt: planned[index].firstAttemptAt + (index === 2 ? afterMs : 0),
			}));
			late.attempts[0].status = 503;
			return late;
		};
		expect(violations(behind, lateLast(6500))).toEqual([]);
		expect(rules(violations(behind, lateLast(5000)))).toEqual(['answeredInTime']);
	});

	it('name a message a crashed run claimed, or holds with a delivery its process answered, and that ran nowhere: the crash limit, not a message lost', () => {
		const crashed = outcome([['m1', 'm2', 'm3']]);
		Object.assign(crashed.runs[0], { passedOn: false, crashed: true, claimed: ['m1'] });
		// m2's delivery was answered by another process; m1 and m3's by the crashed run's.
		crashed.attempts[1].process = 'p2';
		expect(
			violations(c, crashed).map(({ rule, detail }) => `${rule}: ${detail.split(':')[0]}`),
		).toEqual([
			'crashed: m1 ran 0 times',
			'oneRun: m2 ran 0 times, though a delivery of it was answered 2xx',
			'crashed: m3 ran 0 times',
		]);
		// A run that was not cut short loses nothing by this limit.
		crashed.runs[0].crashed = false;
		expect(rules(violations(c, crashed))).toEqual(['oneRun', 'oneRun', 'oneRun']);
	});

	it('excuse the crash limit only where a family stops processes, and nothing else with it: a message lost otherwise, or an answer never resumed, is still found', () => {
		expect(Object.keys(LIMITS).sort()).toEqual([
			'answerStops',
			'everything',
			'ownUrl',
			'stops',
			'takeover',
		]);
		// n8n's own URL failing is excused only where it fails, and alone.
		expect(LIMITS.ownUrl).toEqual(['unreachable']);
		expect(LIMITS.stops).toEqual(['crashed']);
		expect(excused('prompt')).toEqual([]);
		const kept = (found: ReturnType<typeof violations>) =>
			found
				.filter((violation) => !excused('stops').includes(violation.rule))
				.map(({ rule, detail }) => `${rule}: ${detail.split(':')[0]}`);
		// Two bursts: n8n stopped during the first one's run, which claimed m1 and m2; the second's
		// delivery, answered by the same process, ran nowhere with no crash of its own.
		const two = plainCase([300, 6000]);
		const planned = plannedMessages(two);
		const lost: Outcome = {
			...outcome([['m1', 'm2']], { messages: planned }),
			attempts: planned.map((message) => ({
				message: message.id,
				chain: message.index,
				attempt: 1,
				process: 'p1',
				sentAt: message.firstAttemptAt,
				status: 200,
				answeredAt: message.firstAttemptAt + 100,
			})),
		};
		Object.assign(lost.runs[0], { passedOn: false, crashed: true, claimed: ['m1', 'm2'] });
		expect(rules(violations(two, lost))).toEqual(['crashed', 'crashed', 'oneRun']);
		expect(kept(violations(two, lost))).toEqual([
			'oneRun: m3 ran 0 times, though a delivery of it was answered 2xx',
		]);
		// The "1" (m1) answers q1: claimed by the stopped run, it is in the limit as a message, and
		// its question never resumed is still a broken answer (the Catch-Up and the take-over offer it).
		const answer: Outcome = {
			...lost,
			expected: new Map([['m1', 'q1']]),
			questionOf: new Map([['exec-1', 'q1']]),
		};
		expect(kept(violations(two, answer))).toEqual([
			'answers: m1 answers q1, which it never resumed',
			'oneRun: m3 ran 0 times, though a delivery of it was answered 2xx',
		]);
	});

	it('count a copy that passed nothing on as no run', () => {
		const copy = outcome([
			['m1', 'm2', 'm3'],
			['m1', 'm2', 'm3'],
		]);
		copy.runs[1].passedOn = false;
		expect(violations(c, copy)).toEqual([]);
	});
});
