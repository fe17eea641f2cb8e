/**
 * Review 12: Human Takeover in the simulator (family takeover, takeoverRule.ts). Each finding is its
 * minimized case, `it.fails` while today's code breaks the rule, beside a control that holds: the
 * same chat, the one thing that differs being when a delivery comes. Counts: SIM_COUNT_FAMILY=
 * takeover, seeds 1 to 3, 2,000 cases each (count.soak.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { installProcessedDataStore } from '../../../support/processedData';
import { plainCase } from './cases';
import { ProcessPool } from './processPool';
import { checkCase } from './property';
import type { Case } from './scenario';
import { installVirtualTime, uninstallVirtualTime } from './virtualTime';

const pool = new ProcessPool();
beforeAll(() => {
	installProcessedDataStore();
	installVirtualTime();
});
afterAll(() => uninstallVirtualTime());

const delivered = (scatterMs: number[]): Case['delivery'] => ({
	shape: 'prompt',
	lateMs: 0,
	trickleMs: 0,
	scatterMs,
});

const said = async (c: Case) =>
	(await checkCase(c, pool)).map((violation) => `${violation.rule}: ${violation.detail}`);

/**
 * T12-1 (seed 1 case 40, seed 3 case 1222; 9 to 11 % of the family's cases): the account paused
 * the chat a minute before m1 ("/bot off"), m2 comes 10 s after m1, and the account resumes ("/bot
 * on") 2 s after m2. m1's delivery comes `lateMs` after it was saved. Prompt, m1's run reads the
 * chat as it stands and goes to Paused Chats. 40 s late, its read also holds m2 and "/bot on", and
 * hold/turn.ts burstPauseAt judges m1's pause at the account's newest message after it, "/bot on",
 * written after the person's next message: m1 goes to Bot, the bot answering a message written
 * during the takeover. Should: Paused Chats, whenever the delivery comes (docs/takeover.md: a burst
 * goes to the people when its last message is paused). The same with a later hand-over word or
 * "/bot off" sends an earlier burst to Paused Chats. Holds since burstPauseAt judges a burst at the
 * account's newest message within its quiet window, before its author wrote again
 * (shared/conversation/takeover.ts).
 */
const resumedAfterNextBurst = (lateMs: number): Case =>
	plainCase([10_000], {
		delivery: delivered([lateMs, 0]),
		ownMessages: [{ afterMessage: 1, delayMs: 2000 }],
		takeover: {
			resumeAfterHours: 0,
			own: ['resume'],
			handovers: [],
			pausedBefore: { person: 0, beforeMs: 60_000 },
		},
	});

/**
 * T12-2 (seed 1 cases 7, 26, 52; 6 to 7 % of the family's cases): m1 asks for a person ("can I
 * talk to a HUMAN?"), and the account resumes the bot a minute later ("/bot on"), nothing between.
 * Prompt, m1 goes to Paused Chats, as the promise says of a hand-over message. Delivered 70 s late
 * (a retry after n8n was down, a service queue), its read holds "/bot on" and m1 is judged there:
 * Bot answers the hand-over message itself. Should: Paused Chats; conversations.md lets a command
 * pause a burst only when typed "while the burst waited out its quiet window" (5 s here), and the
 * same holds for a resume. The same with "/bot off" 12 s after a burst sends it to Paused Chats.
 * Holds since the same fix as T12-1.
 */
const resumedAfterHandover = (lateMs: number): Case =>
	plainCase([], {
		delivery: delivered([lateMs]),
		ownMessages: [{ afterMessage: 0, delayMs: 60_000 }],
		takeover: { resumeAfterHours: 0, own: ['resume'], handovers: [0] },
	});

/**
 * T12-3 (seed 3 case 1240, with reads failing at m1's third attempt only; standalone it needs the
 * service unreadable for the three attempts, 3.5 minutes): a burst [m1 m2] whose m2's event is
 * lost, the account replying after it, the Catch-Up node on. m1's delivery waits for the burst's
 * last (finding G) and goes back (503) twice; at the service's third attempt its read still fails,
 * and m1 runs alone, not grouped, as documented. m2 runs nowhere: no delivery, no read of m1's run
 * shows it, and the Catch-Up poll takes the burst as answered by the account (catchUp.ts
 * `answered`), though no run held m2. Not takeover's own: found by this family, the first with
 * read faults and lost events together. Should: m2 runs once (the poll runs it when the account
 * did not reply: the control). A documented limit (conversations.md: "Not covered at all: a lost
 * message the account's own message followed right after"): a fix that took an account message in
 * the quiet window for no answer had the bot run on chats people answered within it (R12-1,
 * catchUp/review12.test.ts), and was reverted; the simulator names it (invariants.ts
 * nothingFollows: a burst whose delivered run was not grouped is as good as undelivered).
 */
const lostBesideUnread = (accountReplies: boolean): Case =>
	plainCase([950], {
		quietMs: 2000,
		lost: [1],
		readFaults: Array.from({ length: 30 }, () => 503),
		catchUp: true,
		ownMessages: accountReplies ? [{ afterMessage: 1, delayMs: 220 }] : [],
	});

describe('review 12: Human Takeover', () => {
	it('T12-1 control: m1 delivered at once goes to Paused Chats', async () => {
		expect(await said(resumedAfterNextBurst(0))).toEqual([]);
	});

	it('T12-1: a burst written in a paused chat, delivered 40 s late, is judged at the account\'s "/bot on" written after the person\'s next message, and goes to Bot', async () => {
		expect(await said(resumedAfterNextBurst(40_000))).toEqual([]);
	});

	it('T12-2 control: a hand-over message delivered at once goes to Paused Chats', async () => {
		expect(await said(resumedAfterHandover(0))).toEqual([]);
	});

	it('T12-2: a hand-over message delivered 70 s late is judged at the account\'s "/bot on" typed a minute after it, and goes to Bot', async () => {
		expect(await said(resumedAfterHandover(70_000))).toEqual([]);
	});

	const lost = async (c: Case) => (await said(c)).filter((line) => line.startsWith('oneRun'));

	it('T12-3 control: the account not replying, the Catch-Up poll runs the lost m2', async () => {
		expect(await lost(lostBesideUnread(false))).toEqual([]);
	});

	it("T12-3 (a limit): a burst's delivered message runs alone, its read failing at the service's third attempt; its lost message, the account's reply right after it, runs nowhere, as documented", async () => {
		expect(await lost(lostBesideUnread(true))).toEqual([]);
	});
});
