// The lines `npm run try` prints, one template per outcome. The README quotes them word for word, with
// "…" where a value differs from run to run; test/docs/readme.test.ts renders them so and compares.

/** The staff number the examples tell (takeover, undelivered messages). */
export const STAFF = '919876543210';
/** The refund example's manager and customer (test/dev/workflows/refund-approval.json). */
export const MANAGER = '447700900123';
export const CUSTOMER = '4915112345678';
/** The AI reply bot's customer on Business, and her quick messages (`npm run dev` prints them). */
export const DANA = { phone: '4915198765432', name: 'Dana' };
export const QUICK_MESSAGES = ['hi', 'I ordered yesterday', 'order 4411', 'where is it??'];

const tryIt = (example) => `npm run -s try -- ${example}`;

/**
 * A command that cannot do its part yet: it prints the one line saying what to run first and exits 2,
 * never a raw error of the sandbox.
 */
export class RunFirst extends Error {}

export const LINES = {
	replyBot: ({ took, reply }) =>
		`Alice wrote "Hello!"; the reply bot answered ${took} later: ${reply}`,
	aiBot: ({ within, after, reply }) =>
		`Dana wrote ${QUICK_MESSAGES.length} messages in ${within}; the AI reply bot answered ${after} after the last: ${reply}`,
	botOff: () =>
		`The account wrote "/bot off" in Dana's chat: the AI reply bot stays silent there until /bot on (or 12 hours), and tells the staff number ${STAFF} what she writes, one note per burst of quick messages`,
	botOn: () => `The account wrote "/bot on" in Dana's chat: the AI reply bot answers her again`,
	notPaused: () =>
		`Dana's chat is not paused: the AI reply bot answers her already (nothing sent). Pause it: ${tryIt('bot-off')}`,
	handOver: ({ note }) =>
		`Dana asked for a person: the AI reply bot stays silent in her chat for 12 hours (or until /bot on), and the staff number ${STAFF} was told: ${note}`,
	attachment: ({ took, file }) =>
		`Bob sent invoice.txt; the attachment saver saved it ${took} later: ${file}`,
	campaign: ({ run, name, id, state, recipients }) =>
		`Run ${run} created the campaign "${name}" (${id}): ${state}, ${recipients} recipients`,
	refund: ({ run, question }) =>
		`Question sent to the manager ${MANAGER}; run ${run} waits for the answer: ${question}`,
	approved: ({ way, run, told, waiting = [] }) =>
		`Approved: the manager ${way}, run ${run} finished and told the customer ${CUSTOMER} ${told}${waiting.map((other) => `; run ${other} still waits: run this again`).join('')}`,
	lostEvent: ({ text, id }) =>
		`Dana wrote "${text}" on Business: the service saved it (${id}) and lost its event, so no run started. When she writes again 3 minutes or more later, the AI reply bot's run of her new message also carries this one as an item marked caught_up: ${tryIt('ai-bot')}`,
	undelivered: ({ id, note }) =>
		`The order update to 4915700000000 (${id}) was accepted, then reported failed; the staff number ${STAFF} was told: ${note}`,
};

/** The one-line "run X first" of each command that needs another first (exit 2). */
export const FIRST = {
	windowClosed: (command) =>
		`Dana has not written in the last 24 hours, and a Business chat takes the account's "${command}" only within 24 hours of her last message: run ${tryIt('ai-bot')} or ${tryIt('hand-over')} first`,
	paused: ({ since, how }) =>
		`Dana's chat is paused since ${since}, when ${how}: the AI reply bot stays silent there. Run ${tryIt('bot-on')} first`,
	noQuestion: () =>
		`No question waiting: the refund approval has not asked the manager ${MANAGER} yet. Run ${tryIt('refund')} first`,
	answered: ({ run, status }) =>
		`No question waiting: the last one to the manager (run ${run}) is answered already (${status}). Run ${tryIt('refund')} first`,
};

/** What a command still waits for, printed every 10 s from its second second on, so a wait never looks hung. */
export const waitingLine = (what, elapsedMs) =>
	`… waiting for ${what} (${Math.round(elapsedMs / 1000)} s so far)`;
