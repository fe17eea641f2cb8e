// `npm run try` for the examples whose effect is a run in n8n: the attachment saver, the campaign, the
// refund approval and its answers, the undelivered messages, and the list of the last runs.
import { existsSync } from 'node:fs';
import { nodeOutput } from '../support/n8nRestApi.mjs';
import { UNDELIVERED_UPDATE } from './tryIt.mjs';
import { CUSTOMER, FIRST, LINES, MANAGER, RunFirst, STAFF } from './tryLines.mjs';
import { duration, newSends, questionsTo, quote, runsTable } from './tryReport.mjs';

/** A user agent of a browser: the approval link answers only a person's browser, not a program (README). */
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0.0.0 Safari/537.36';
const BOB = { phone: MANAGER, name: 'Bob' };
const FILE = { fileName: 'invoice.txt', mimeType: 'text/plain', content: 'Invoice 42: 10 EUR' };
const WRITES_FILES = 'n8n-nodes-base.readWriteFile';
/** The QR number's pacing, which any note to staff may wait for after the other examples' sends. */
const QR_PACING = 'on QR, which sends 5 messages a minute: after other examples up to a minute';

/** The actions of the examples that run in n8n, over the helpers of tryContext. */
export function runActions(context) {
	const { control, sends, inject, tool, n8n, until, isRunOf, start, lastRunId, runAfter } = context;
	const { finished, runLink } = context;

	/** The refund questions to the manager, newest first, each with its run's status. */
	async function refundQuestions(all) {
		const api = await n8n();
		const found = [];
		for (const question of questionsTo(all, MANAGER).reverse().slice(0, 20)) {
			const run = await api.request('GET', `/executions/${question.run}`).catch(() => undefined);
			if (run && (await isRunOf('refund-approval', run)))
				found.push({ ...question, status: run.status });
		}
		return found;
	}

	async function campaign() {
		const after = await lastRunId();
		const campaignIds = async () =>
			(await control('GET', '/state')).accounts.flatMap((account) => account.campaigns);
		const before = new Set((await campaignIds()).map((c) => c.id));
		await start('campaign-from-list');
		const started = await until('the campaign run in n8n', () =>
			runAfter(after, (run) => isRunOf('campaign-from-list', run)),
		);
		const run = await finished(started.id, `the end of the campaign run ${started.id}`);
		if (run.status !== 'success') return `Run ${run.id} ended ${run.status}: ${runLink(run)}`;
		const created = (await campaignIds()).filter((c) => !before.has(c.id));
		if (created.length === 0)
			return `Run ${run.id} finished but created no campaign: ${runLink(run)}`;
		return created.map((c) => LINES.campaign({ run: run.id, ...c })).join('\n');
	}

	async function refund() {
		const before = new Set((await sends()).map((send) => send.message_id));
		await start('refund-approval');
		const question = await until(`the question to the manager (${QR_PACING})`, async () => {
			const [newest] = await refundQuestions(newSends(before, await sends()));
			return newest;
		});
		return LINES.refund({ run: question.run, question: quote(question.send.text) });
	}

	/**
	 * Answers the newest refund question whose run still waits (an answered one's link says "No
	 * action required"): `how` is 'link' (its Approve link) or 'chat' (the manager writes "1",
	 * quoting the question when the account wrote to the manager after it).
	 */
	async function approve(how) {
		const all = await sends();
		const questions = await refundQuestions(all);
		const [question, ...alsoWaiting] = questions.filter((q) => q.status === 'waiting');
		if (!question)
			throw new RunFirst(
				questions.length === 0
					? FIRST.noQuestion()
					: FIRST.answered({ run: questions[0].run, status: questions[0].status }),
			);
		const before = new Set(all.map((send) => send.message_id));
		let way;
		if (how === 'link') {
			const response = await fetch(question.link, { headers: { 'user-agent': BROWSER } });
			if (!response.ok)
				return `The Approve link of run ${question.run} answered HTTP ${response.status}`;
			way = `opened the Approve link (HTTP ${response.status})`;
		} else {
			// Unquoted, a "1" answers only while the account has written nothing to the manager since
			// the question (a newer question, or the reply bot answering the manager's own message).
			const lastToManager = all.filter((send) => send.to === MANAGER).at(-1);
			const quoting = lastToManager?.message_id !== question.send.message_id;
			await inject(BOB, '1', 'qr', quoting ? { quotedMessageId: question.send.message_id } : {});
			way = quoting ? 'wrote "1" in the chat, quoting the question' : 'wrote "1" in the chat';
		}
		const run = await finished(
			question.run,
			`the end of the refund run ${question.run}, which tells the customer (${QR_PACING})`,
		);
		if (run.status !== 'success')
			return `The manager ${way}; run ${run.id} ended ${run.status}: ${runLink(run)}`;
		const told = newSends(before, await sends()).find((send) => send.to === CUSTOMER);
		const waiting = alsoWaiting.map((other) => other.run);
		return LINES.approved({ way, run: run.id, told: quote(told?.text), waiting });
	}

	/** Bob's QR message with a file; waits for the attachment saver's run and the file on disk. */
	async function attachment() {
		const after = await lastRunId();
		await inject(BOB, 'invoice attached', 'qr', { attachment: FILE });
		const sent = Date.now();
		const api = await n8n();
		const nodes = new Map();
		const saver = async (run) => {
			if (!nodes.has(run.workflowId)) {
				const { nodes: all } = await api.getWorkflow(run.workflowId);
				nodes.set(run.workflowId, all.find((node) => node.type === WRITES_FILES)?.name);
			}
			return nodes.get(run.workflowId) !== undefined;
		};
		const started = await until(
			'the attachment saver\'s run (is "Example: attachment saver" active?)',
			() => runAfter(after, saver),
		);
		const run = await finished(started.id, `the end of the attachment saver's run ${started.id}`);
		const [saved] = nodeOutput(await api.getExecution(run.id), nodes.get(run.workflowId)) ?? [];
		if (run.status !== 'success' || !saved?.fileName || !existsSync(saved.fileName))
			return `Run ${run.id} ended ${run.status} and saved no file: ${runLink(run)}`;
		return LINES.attachment({ took: duration(Date.now() - sent), file: saved.fileName });
	}

	/**
	 * Sends an order update on Business to the sandbox's number on no network (accepted, then reported
	 * failed) and waits for the undelivered-messages example's note to the staff number about it.
	 */
	async function undelivered() {
		const { message_id: id } = await tool('send_message', UNDELIVERED_UPDATE);
		const note = await until(
			`the note to the staff number ${STAFF} (${QR_PACING}; is "Example: tell staff about undelivered messages" active?)`,
			async () => (await sends()).find((send) => send.to === STAFF && send.text.includes(id)),
		);
		return LINES.undelivered({ id, note: quote(note.text) });
	}

	async function runs() {
		return runsTable(await (await n8n()).recentExecutions(10), Date.now());
	}

	return {
		attachment,
		campaign,
		refund,
		approve: () => approve('link'),
		'approve-in-chat': () => approve('chat'),
		undelivered,
		runs,
	};
}
