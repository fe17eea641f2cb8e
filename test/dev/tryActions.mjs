// What each `npm run try -- <example>` does: it causes the example's event, waits for the effect and
// returns one line saying what happened. It reads only the loopback services `npm run dev` started:
// the sandbox's control API and n8n's REST API (as the owner).
import { loginN8n } from '../support/n8nRestApi.mjs';
import { OWNER } from '../support/n8nProcess.mjs';
import {
	CUSTOMER,
	duration,
	MANAGER,
	newSends,
	questionsTo,
	quote,
	runsTable,
} from './tryReport.mjs';
import { START_PATHS, UNDELIVERED_UPDATE } from './tryIt.mjs';

/** A user agent of a browser: the approval link answers only a person's browser, not a program (README). */
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0.0.0 Safari/537.36';

const ALICE = { phone: CUSTOMER, name: 'Alice' };
/** The staff number the examples tell (takeover, undelivered messages). */
const STAFF = '919876543210';
/** The AI reply bot's customer on Business, and her quick messages (`npm run dev` prints them). */
const DANA = { phone: '4915198765432', name: 'Dana' };
const QUICK_MESSAGES = ['hi', 'I ordered yesterday', 'order 4411', 'where is it??'];
const UNFINISHED = ['new', 'running', 'waiting'];
const TRY_REFUND = 'npm run -s try -- refund';

/** Polls `probe` until it returns something; after `seconds`, fails saying what did not happen. */
async function until(what, probe, seconds = 60) {
	const deadline = Date.now() + seconds * 1000;
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`after ${seconds} s, still no ${what}`);
		await pause();
	}
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 250));

/** The actions for the dev stack at these addresses (`webhookBaseUrl`: where n8n serves webhooks). */
export function tryExamples({ sandboxUrl, n8nUrl, webhookBaseUrl = n8nUrl }) {
	const control = async (method, path, body) => {
		const response = await fetch(`${sandboxUrl}/__sandbox${path}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (!response.ok)
			throw new Error(`the sandbox answered ${response.status}: ${await response.text()}`);
		return response.json();
	};
	const sends = async () => (await control('GET', '/sends')).sends;
	const sendIds = async () => new Set((await sends()).map((send) => send.message_id));
	const inject = (from, text, channel = 'qr') =>
		control('POST', '/inject/message', { channel, from, text });
	let session;
	const n8n = () => (session ??= loginN8n(n8nUrl, OWNER));
	const runLink = (run) => `${n8nUrl}/workflow/${run.workflowId}/executions/${run.id}`;

	/** Posts to an example's start webhook; n8n answers 404 until publishing has registered it. */
	async function start(example) {
		const url = `${webhookBaseUrl}/webhook/${START_PATHS[example]}`;
		const deadline = Date.now() + 20_000;
		for (;;) {
			const response = await fetch(url, { method: 'POST' });
			if (response.ok) return;
			const answer = `n8n answered ${response.status} ${await response.text()} to POST ${url}`;
			if (response.status !== 404) throw new Error(answer);
			if (Date.now() > deadline) throw new Error(`${answer}: is the example active?`);
			await pause();
		}
	}

	/** The newest run id n8n knows (0 when none): runs after it are this command's. */
	async function lastRunId() {
		const [newest] = await (await n8n()).recentExecutions(1);
		return Number(newest?.id ?? 0);
	}

	const startPaths = new Map();
	/** Whether a run is one of `example` (its workflow has that start webhook, whatever its name). */
	async function isRunOf(example, run) {
		if (!startPaths.has(run.workflowId)) {
			const { nodes } = await (await n8n()).getWorkflow(run.workflowId);
			startPaths.set(run.workflowId, new Set(nodes.map((node) => node.parameters?.path)));
		}
		return startPaths.get(run.workflowId).has(START_PATHS[example]);
	}

	/** The first run of `example` after run `after`, or undefined. */
	async function runOf(example, after) {
		const runs = (await (await n8n()).recentExecutions(20)).filter((run) => Number(run.id) > after);
		for (const run of runs.reverse()) if (await isRunOf(example, run)) return run;
		return undefined;
	}

	/**
	 * The newest refund question among `sends` with its run, or undefined: a question to the manager
	 * from a run of the refund example (other workflows may ask the same number).
	 */
	async function refundQuestion(sends) {
		const api = await n8n();
		for (const question of questionsTo(sends, MANAGER).reverse().slice(0, 20)) {
			const run = await api.request('GET', `/executions/${question.run}`).catch(() => undefined);
			if (run && (await isRunOf('refund-approval', run)))
				return { ...question, status: run.status };
		}
		return undefined;
	}

	/** Waits for run `id` to leave the running and waiting states; resolves to its summary. */
	async function finished(id) {
		const api = await n8n();
		return until(`end of run ${id}`, async () => {
			const run = await api.request('GET', `/executions/${id}`);
			return UNFINISHED.includes(run.status) ? undefined : run;
		});
	}

	async function replyBot() {
		const before = await sendIds();
		const { message } = await inject(ALICE, 'Hello!');
		const sent = Date.now();
		const reply = await until('reply to Alice (is "Example: reply bot" active?)', async () =>
			newSends(before, await sends()).find(
				(send) => send.conversation_id === message.conversation_id,
			),
		);
		return `Alice wrote "Hello!"; the reply bot answered ${duration(Date.now() - sent)} later: ${quote(reply.text)}`;
	}

	/** A message the account sends (as if typed on its phone), through the sandbox's API with its key. */
	async function sendAsAccount(body) {
		const { keys } = await control('GET', '/keys');
		const response = await fetch(`${sandboxUrl}/api/v1/tools/send_message`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${keys.owner}`,
				'content-type': 'application/json',
				'idempotency-key': `dev-try-${Date.now()}`,
			},
			body: JSON.stringify(body),
		});
		if (!response.ok)
			throw new Error(`the sandbox answered ${response.status}: ${await response.text()}`);
		return response.json();
	}

	/** The account's `/bot off` or `/bot on` in Dana's chat: the AI reply bot's takeover commands. */
	async function botCommand(command) {
		await sendAsAccount({ channel: 'business', phoneNumber: DANA.phone, text: command });
		return command === '/bot off'
			? `The account wrote "/bot off" in Dana's chat: the AI reply bot stays silent there and tells the staff number ${STAFF} of each message she writes, until /bot on (or 12 hours)`
			: `The account wrote "/bot on" in Dana's chat: the AI reply bot answers her again`;
	}

	/** Dana's quick messages, one after the other; waits for the AI reply bot's one answer to them. */
	async function aiBot() {
		const before = await sendIds();
		const started = Date.now();
		let conversation;
		for (const text of QUICK_MESSAGES)
			({
				message: { conversation_id: conversation },
			} = await inject(DANA, text, 'business'));
		const wrote = Date.now();
		const reply = await until(
			'reply to Dana (is "Example: AI reply bot" active, and her chat not paused? npm run -s try -- bot-on resumes it)',
			async () =>
				newSends(before, await sends()).find((send) => send.conversation_id === conversation),
		);
		return `Dana wrote ${QUICK_MESSAGES.length} messages in ${duration(wrote - started)}; the AI reply bot answered ${duration(Date.now() - wrote)} after the last: ${quote(reply.text)}`;
	}

	/** Dana asks for a person: the bot pauses in her chat, and waits for the staff number's note. */
	async function handOver() {
		const before = await sendIds();
		await inject(DANA, 'can I talk to a human?', 'business');
		const note = await until(`note to the staff number ${STAFF}`, async () =>
			newSends(before, await sends()).find((send) => send.to === STAFF),
		);
		return `Dana asked for a person: the AI reply bot stays silent in her chat for 12 hours (or until /bot on), and the staff number ${STAFF} was told: ${quote(note.text)}`;
	}

	async function campaign() {
		const api = await n8n();
		const after = await lastRunId();
		const campaignIds = async () =>
			(await control('GET', '/state')).accounts.flatMap((account) => account.campaigns);
		const before = new Set((await campaignIds()).map((c) => c.id));
		await start('campaign-from-list');
		const started = await until('campaign run in n8n', () => runOf('campaign-from-list', after));
		const run = await finished(started.id);
		if (run.status !== 'success') return `Run ${run.id} ended ${run.status}: ${runLink(run)}`;
		const created = (await campaignIds()).filter((c) => !before.has(c.id));
		if (created.length === 0)
			return `Run ${run.id} finished but created no campaign: ${runLink(run)}`;
		return created
			.map(
				(c) =>
					`Run ${run.id} created the campaign "${c.name}" (${c.id}): ${c.state}, ${c.recipients} recipients`,
			)
			.join('\n');
	}

	async function refund() {
		const before = await sendIds();
		await start('refund-approval');
		const question = await until('question to the manager', async () =>
			refundQuestion(newSends(before, await sends())),
		);
		return `Question sent to the manager ${MANAGER}; run ${question.run} waits for the answer: ${quote(question.send.text)}`;
	}

	/**
	 * Answers the newest refund question, when its run still waits (an older question's link answers
	 * "No action required"): `how` is 'link' (its Approve link) or 'chat' (the manager writes "1").
	 */
	async function approve(how) {
		const all = await sends();
		const question = await refundQuestion(all);
		if (!question)
			return `No question waiting: the refund approval has not asked the manager ${MANAGER} yet. Ask: ${TRY_REFUND}`;
		if (question.status !== 'waiting')
			return `No question waiting: the last one to the manager (run ${question.run}) is answered already (${question.status}). Ask again: ${TRY_REFUND}`;
		const before = new Set(all.map((send) => send.message_id));
		let way = 'wrote "1" in the chat';
		if (how === 'link') {
			const response = await fetch(question.link, { headers: { 'user-agent': BROWSER } });
			if (!response.ok)
				return `The Approve link of run ${question.run} answered HTTP ${response.status}`;
			way = `opened the Approve link (HTTP ${response.status})`;
		} else {
			await inject({ phone: MANAGER, name: 'Bob' }, '1');
		}
		const run = await finished(question.run);
		if (run.status !== 'success')
			return `The manager ${way}; run ${run.id} ended ${run.status}: ${runLink(run)}`;
		const told = newSends(before, await sends()).find((send) => send.to === CUSTOMER);
		return `Approved: the manager ${way}, run ${run.id} finished and told the customer ${CUSTOMER} ${quote(told?.text)}`;
	}

	/**
	 * Sends an order update on Business to the sandbox's number on no network (accepted, then reported
	 * failed) and waits for the undelivered-messages example's note to the staff number about it.
	 */
	async function undelivered() {
		const { message_id: id } = await sendAsAccount(UNDELIVERED_UPDATE);
		const note = await until(
			`note to the staff number ${STAFF} (is "Example: tell staff about undelivered messages" active?)`,
			async () => (await sends()).find((send) => send.to === STAFF && send.text.includes(id)),
		);
		return `The order update to ${UNDELIVERED_UPDATE.phoneNumber} (${id}) was accepted, then reported failed; the staff number ${STAFF} was told: ${quote(note.text)}`;
	}

	async function runs() {
		return runsTable(await (await n8n()).recentExecutions(10), Date.now());
	}

	return {
		'reply-bot': replyBot,
		'ai-bot': aiBot,
		'hand-over': handOver,
		'bot-off': () => botCommand('/bot off'),
		'bot-on': () => botCommand('/bot on'),
		campaign,
		refund,
		approve: () => approve('link'),
		'approve-in-chat': () => approve('chat'),
		undelivered,
		runs,
	};
}
