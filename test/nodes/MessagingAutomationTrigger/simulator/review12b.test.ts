/**
 * Review 12b (helper-70): T12-1/T12-2's fix (shared/conversation/takeover.ts burstPauseAt: a burst's
 * pause is judged at the account's newest message within its last message's quiet window, by the
 * messages' timestamps) against the trigger's own closes, in the simulator (the real trigger on a
 * virtual clock). takeoverRule.ts draws its window the same way (timestamps, last message plus the
 * quiet window), so these cases break no rule there: each asserts the run's output directly. Each
 * finding is an `it.fails` beside a control that passes. R12-4 and R12-5 hold since burstPauseAt
 * stops at the burst's close (bursts.ts closesAt) on the service's clock: the phone's timestamps
 * plus the delivery's lag (its event's queue time less its timestamp).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { installProcessedDataStore } from '../../../support/processedData';
import { plainCase } from './cases';
import { ProcessPool } from './processPool';
import type { Case } from './scenario';
import type { OwnText } from './takeover';
import { installVirtualTime, uninstallVirtualTime } from './virtualTime';
import { runCase } from './world';

const pool = new ProcessPool();
beforeAll(() => {
	installProcessedDataStore();
	installVirtualTime();
});
afterAll(() => uninstallVirtualTime());

/** Each run that passed its item on: its messages, its output (0 Bot, 1 Paused Chats), its pause. */
async function runsOf(c: Case) {
	await pool.nextCase();
	const outcome = await runCase(c, pool);
	return outcome.runs
		.filter((run) => run.passedOn)
		.map((run) => ({
			messages: run.messageIds.join(' '),
			outputs: run.outputs,
			paused: run.paused,
		}));
}

const takeover = (own: OwnText[]): Case['takeover'] => ({
	resumeAfterHours: 12,
	own,
	handovers: [],
});
const bot = (messages: string) => [{ messages, outputs: [0], paused: false }];
const people = (messages: string) => [{ messages, outputs: [1], paused: true }];

/**
 * R12-4 (severity low; T12-1's class, left open by its fix): m1, m2, m3 typed 4 s apart, Longest
 * Wait 10 s, quiet window 5 s: the burst closes at m1 + 10 s by its Longest Wait, and its run
 * starts then. The account types "/bot off" 2 s later (m3 + 4 s: within m3's quiet window, after
 * the burst closed). Delivered at once, the run's read comes before the command: Bot. Delivered
 * 5 s late, the read holds it and burstPauseAt judges the burst there: Paused Chats. The output
 * changes with when the read came, what T12-1/T12-2 set out to end, and the Catch-Up node (its
 * read always later) judges such a burst Paused. Should: Bot, however late the delivery: the
 * burst did not wait out a quiet window (conversations.md, Human takeover: "a command the account
 * typed while the burst waited out its quiet window"). Smallest fix: burstPauseAt stops at the
 * burst's close (bursts.ts closesAt(first, last): the Longest Wait's too), not at last + quiet.
 */
describe('review 12b: a command after a burst closed by its Longest Wait (R12-4)', () => {
	const longestThenCommand = (lateMs: number): Case =>
		plainCase([4000, 4000], {
			longestMs: 10_000,
			delivery:
				lateMs > 0
					? { shape: 'together', lateMs, trickleMs: 0, scatterMs: [0, 0, 0] }
					: { shape: 'prompt', lateMs: 0, trickleMs: 0, scatterMs: [0, 0, 0] },
			ownMessages: [{ afterMessage: 2, delayMs: 4000 }],
			takeover: takeover(['pause']),
		});

	it('control: delivered at once, the burst goes to Bot (its run started before the command)', async () => {
		expect(await runsOf(longestThenCommand(0))).toEqual(bot('m1 m2 m3'));
	});

	it('R12-4: delivered 5 s late, the same burst goes to Paused Chats: the command after its Longest Wait close is in the read', async () => {
		expect(await runsOf(longestThenCommand(5000))).toEqual(bot('m1 m2 m3'));
	});
});

/**
 * R12-5 (severity medium; a regression of T12-1/T12-2's fix): a person's message uploaded late
 * (written offline 60 s before it reached the service), or stamped by a phone clock 20 s behind.
 * The owner sees it arrive and types "/bot off" 2 s later. The trigger, as documented
 * (conversations.md: a phone whose lag is over a quiet window waits a quiet window past the
 * latest of its messages saved), starts the run 5 s after the save, so its read holds the
 * command; but burstPauseAt measures the quiet window from the message's own timestamp (62 s, or
 * 22 s, before the command) and judges the burst at its last message: Bot, and the bot answers
 * 3 s after the owner took the chat over, the two voices takeover exists to prevent. Before T12-1
 * the newest account message of the read decided: Paused Chats. Should: Paused Chats, as with a
 * phone in time (the control). Smallest fix: measure burstPauseAt's window as the trigger's close
 * does, from the last message's save where the phone lags (its savedBy, or the delivery's lag,
 * uploadWindow.ts), the same in caughtUp.ts.
 */
describe('review 12b: a command typed while a late upload waits out its quiet window (R12-5)', () => {
	const commandAfterSave = ({ offlineMs = 0, skewMs = 0 }): Case =>
		plainCase([], {
			bursts: [{ person: 0, pauseMs: 6000, gapsMs: [], offlineMs, saveGapMs: 0 }],
			phone: { skewMs },
			// Two seconds after the message reached the service (written at 0, saved at offlineMs).
			ownMessages: [{ afterMessage: 0, delayMs: offlineMs + 2000 }],
			takeover: takeover(['pause']),
		});

	it('control: the phone in time, "/bot off" 2 s after the message sends it to Paused Chats', async () => {
		expect(await runsOf(commandAfterSave({}))).toEqual(people('m1'));
	});

	it('R12-5: uploaded 60 s late, "/bot off" 2 s after it reached the service, before its run, and the bot answers it', async () => {
		expect(await runsOf(commandAfterSave({ offlineMs: 60_000 }))).toEqual(people('m1'));
	});

	it('R12-5: stamped by a phone 20 s behind, "/bot off" 2 s after it reached the service, before its run, and the bot answers it', async () => {
		expect(await runsOf(commandAfterSave({ skewMs: -20_000 }))).toEqual(people('m1'));
	});
});

/**
 * Holds: an account message that closes a burst (own_message) and a command typed after it within
 * the quiet window. The trigger waits past the account's message (its phone's lag, up to a quiet
 * window) before the run, and its read holds the command whether the delivery came before the
 * account's message, between the two, or after both: Paused Chats each time.
 */
describe('review 12b: a reply, then a command, within the quiet window (holds)', () => {
	const replyThenCommand = (lateMs: number): Case =>
		plainCase([], {
			delivery: { shape: 'prompt', lateMs: 0, trickleMs: 0, scatterMs: [lateMs] },
			ownMessages: [
				{ afterMessage: 0, delayMs: 1000 },
				{ afterMessage: 0, delayMs: 4500 },
			],
			takeover: takeover(['reply', 'pause']),
		});

	for (const lateMs of [0, 1500, 5000])
		it(`delivered ${lateMs} ms late: Paused Chats`, async () => {
			expect(await runsOf(replyThenCommand(lateMs))).toEqual(people('m1'));
		});
});
