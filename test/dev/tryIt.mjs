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

const json = (body) => `'${JSON.stringify(body)}'`;

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
	const inject = (body) =>
		`curl -s -X POST ${sandboxUrl}/__sandbox/inject/message -H 'content-type: application/json' -d ${json(body)}`;
	return {
		replyBot: tryIt('reply-bot'),
		aiBot: tryIt('ai-bot'),
		pause: tryIt('bot-off'),
		resume: tryIt('bot-on'),
		handOver: tryIt('hand-over'),
		sends: `curl -s ${sandboxUrl}/__sandbox/sends`,
		attachment: inject({
			from: { phone: '447700900123', name: 'Bob' },
			text: 'invoice attached',
			attachment: {
				fileName: 'invoice.txt',
				mimeType: 'text/plain',
				content: 'Invoice 42: 10 EUR',
			},
		}),
		campaign: tryIt('campaign'),
		refund: tryIt('refund'),
		// The manager answers in the chat: the reply bot's trigger passes the answer on (Answer in Chat).
		approveInChat: tryIt('approve-in-chat'),
		// The Approve link of the question still waiting, opened as a browser would.
		approve: tryIt('approve'),
		runs: tryIt('runs'),
		undelivered: tryIt('undelivered'),
	};
}
