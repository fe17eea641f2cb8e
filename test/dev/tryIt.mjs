// The shell commands `npm run dev` prints to try each example without a browser. One place, so the
// e2e suite (test/e2e/examples.test.mts) runs the very commands a reader copies. The examples that
// answer go through `npm run try` (test/dev/try.mjs), which waits for the effect and says what happened.

/** The webhook paths of the examples that start by hand (their *Start From the Terminal* node). */
export const START_PATHS = {
	'campaign-from-list': 'example-campaign-from-list',
	'refund-approval': 'example-refund-approval',
};

/** Where `npm run dev` puts the sandbox and n8n when those ports are free; `npm run try` assumes them. */
export const DEFAULT_ADDRESSES = {
	sandboxUrl: 'http://127.0.0.1:4010',
	n8nUrl: 'http://127.0.0.1:5678',
};

/** An order update on Business to the sandbox's number on no network (DEMO.unregisteredPhone): accepted, then failed. */
export const UNDELIVERED_UPDATE = {
	channel: 'business',
	phoneNumber: '4915700000000',
	templateName: 'order_update',
	templateLanguage: 'en',
	templateParameters: ['Erin', '1044', 'shipped'],
	recipientOptInConfirmed: true,
};

/**
 * Every command, by what it does. `sandboxUrl` is the sandbox's, `n8nUrl` n8n's editor and REST API,
 * `webhookBaseUrl` where n8n serves production webhooks (the webhook process in queue mode).
 */
export function tryItCommands({ sandboxUrl, n8nUrl, webhookBaseUrl = n8nUrl }) {
	const where = [
		sandboxUrl === DEFAULT_ADDRESSES.sandboxUrl ? '' : ` --sandbox ${sandboxUrl}`,
		n8nUrl === DEFAULT_ADDRESSES.n8nUrl ? '' : ` --n8n ${n8nUrl}`,
		webhookBaseUrl === n8nUrl ? '' : ` --webhooks ${webhookBaseUrl}`,
	].join('');
	// -s: npm's own banner stays out, so what happened is the one line printed.
	const tryIt = (what) => `npm run -s try -- ${what}${where}`;
	return {
		replyBot: tryIt('reply-bot'),
		aiBot: tryIt('ai-bot'),
		pause: tryIt('bot-off'),
		resume: tryIt('bot-on'),
		handOver: tryIt('hand-over'),
		lostEvent: tryIt('lost-event'),
		sends: `curl -s ${sandboxUrl}/__sandbox/sends`,
		attachment: tryIt('attachment'),
		campaign: tryIt('campaign'),
		refund: tryIt('refund'),
		// The Approve link of the newest question still waiting, opened as a browser would.
		approve: tryIt('approve'),
		// The manager answers in the chat: the reply bot's trigger passes the answer on (Answer in Chat).
		approveInChat: tryIt('approve-in-chat'),
		runs: tryIt('runs'),
		undelivered: tryIt('undelivered'),
	};
}

/** The credential `npm run dev` creates for the sandbox. */
export const CREDENTIAL_NAME = 'Messaging Automation (sandbox)';

/** What Ctrl-C stops: the banner's last line and the shutdown line say the same. */
export const STOPS = 'n8n, the sandbox and the model';

/**
 * What `npm run dev` prints once everything runs: where things are, the examples (`workflows`: one
 * name, whether published, and its link in the editor) and a command for each, in the README's order. The README quotes it (readme.test.ts).
 */
export function devBanner({ n8nUrl, login, sandbox, queue, credential, workflows, run }) {
	return [
		'',
		`n8n editor:   ${n8nUrl}`,
		`login:        ${login.email} / ${login.password}`,
		`sandbox:      ${sandbox.url}  (API key ${sandbox.apiKey}, control API ${sandbox.url}/__sandbox/state)`,
		...(queue ? [`queue mode:   ${queue}`] : []),
		`credential:   "${credential}"`,
		'workflows:',
		...workflows.map(
			({ name, active, link }) => `  - ${name}${active ? ' (active)' : ''}: ${link}`,
		),
		'',
		"Make Alice write to the reply bot on the QR number (it prints the bot's answer once sent):",
		`  ${run.replyBot}`,
		'Write to the AI reply bot on Business as Dana, in four quick messages; it answers once, when its 5 s quiet window after the last has passed (5-8 s), and prints that answer:',
		`  ${run.aiBot}`,
		"Take the chat over (the bot stays silent, the staff number 919876543210 gets one note per burst of her messages), then hand it back (after ai-bot or hand-over: a Business chat takes the account's messages only within 24 hours of hers):",
		`  ${run.pause}`,
		`  ${run.resume}`,
		'Or let Dana ask for a person (a hand-over word pauses the bot for 12 hours, or until /bot on; it prints what staff were told):',
		`  ${run.handOver}`,
		`Then see what was sent: ${run.sends}`,
		"Lose an event, as the service may (it saves Dana's message and never queues its event, so nothing runs; her next message's run catches it up, 3 minutes or more later, marked caught_up):",
		`  ${run.lostEvent}`,
		'Send an order update on Business to 4915700000000, a number on no network: the service accepts it, then reports it failed, and the staff number 919876543210 is told which message to whom failed and why:',
		`  ${run.undelivered}`,
		'Send the attachment saver a QR message with a file (it prints where the file was saved, once it is there):',
		`  ${run.attachment}`,
		'Start the campaign example (it prints the draft campaign and its three recipients, added in one batch):',
		`  ${run.campaign}`,
		'Start the refund approval (it prints the question once sent to the manager 447700900123; the run waits), then approve as the manager, through the Approve link or by writing 1 in the chat (the reply bot passes the answer on and does not reply to it); either answers the newest question still waiting and prints "Approved" and what the customer was told:',
		`  ${run.refund}`,
		`  ${run.approve}`,
		`  ${run.approveInChat}`,
		'In the editor, Execute workflow starts these two as well.',
		`The last runs and their status (the editor's executions list): ${run.runs}`,
		'',
		`Ctrl-C stops ${STOPS}.`,
		'',
	].join('\n');
}
