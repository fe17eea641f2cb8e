import { describe, expect, it } from 'vitest';

const load = () => import('./tryReport.mjs');
const MANAGER = '447700900123';

const question = (
	id: string,
	run: string,
	link = `http://127.0.0.1:5678/webhook-waiting/${run}/n1`,
) => ({
	message_id: id,
	to: MANAGER,
	text: `Refund 25 EUR for order 1042?\n\nReply 1 to Approve or 2 to Decline\n\nApprove: ${link}?approved=true&signature=s\nDecline: ${link}?approved=false&signature=s`,
});

describe('what npm run try reads from the sends', () => {
	it('takes the run from a resume link as n8n 1.x and 2.x build them, and nothing from other links', async () => {
		const { runOfLink } = await load();
		expect(runOfLink('http://127.0.0.1:5678/webhook-waiting/57?approved=true&signature=s')).toBe(
			'57',
		);
		expect(
			runOfLink('http://127.0.0.1:5679/webhook-waiting/57/a1b2?approved=true&signature=s'),
		).toBe('57');
		expect(runOfLink('http://127.0.0.1:5678/form-waiting/57')).toBeUndefined();
		expect(runOfLink('not a link')).toBeUndefined();
	});

	it('lists the questions to one number, oldest first, each with its run; other messages and numbers are not questions', async () => {
		const { questionsTo } = await load();
		const sends = [
			question('m1', '5'),
			{ message_id: 'm2', to: MANAGER, text: 'Approve: later' },
			{ ...question('m3', '6'), to: '4915112345678' },
			question('m4', '7', 'http://127.0.0.1:5678/webhook-waiting/7'),
		];
		expect(questionsTo(sends, MANAGER).map(({ run, send }) => [run, send.message_id])).toEqual([
			['5', 'm1'],
			['7', 'm4'],
		]);
	});

	it('quotes the first line of a message, marking what it leaves out', async () => {
		const { quote } = await load();
		expect(quote('Refund 25 EUR for order 1042?\n\nReply 1')).toBe(
			'"Refund 25 EUR for order 1042? …"',
		);
		expect(quote('Your refund is approved.')).toBe('"Your refund is approved."');
	});
});

describe('the last runs, listed without a browser', () => {
	const now = Date.parse('2026-11-27T12:00:00Z');

	it('prints one aligned row per run, newest first, ending with a newline; a waiting run has taken no time yet', async () => {
		const { runsTable } = await load();
		const table = runsTable(
			[
				{
					id: '12',
					status: 'waiting',
					workflowName: 'Example: refund approval over chat',
					startedAt: '2026-11-27T11:59:50.000Z',
					stoppedAt: null,
				},
				{
					id: '11',
					status: 'success',
					workflowName: 'Example: campaign from a list of recipients',
					startedAt: '2026-11-27T11:55:00.000Z',
					stoppedAt: '2026-11-27T11:55:01.400Z',
				},
				{
					id: '9',
					status: 'error',
					workflowName: 'Example: reply bot',
					startedAt: '2026-11-27T09:58:00.000Z',
					stoppedAt: '2026-11-27T09:59:05.000Z',
				},
			],
			now,
		);
		expect(table).toBe(
			[
				'run  status   workflow                                     started        took',
				'12   waiting  Example: refund approval over chat           10 s ago',
				'11   success  Example: campaign from a list of recipients  5 min 0 s ago  1.4 s',
				'9    error    Example: reply bot                           2 h 2 min ago  1 min 5 s',
				'',
			].join('\n'),
		);
	});

	it('says so when there is no run yet', async () => {
		const { runsTable } = await load();
		expect(runsTable([], now)).toBe('No runs yet.\n');
	});
});
