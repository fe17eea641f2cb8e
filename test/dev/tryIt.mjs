// The shell commands `npm run dev` prints to try each example without a browser. One place, so the
// e2e suite (test/e2e/examples.test.mts) runs the very commands a reader copies.

/** The webhook paths of the examples that start by hand (their *Start From the Terminal* node). */
export const START_PATHS = {
	'campaign-from-list': 'example-campaign-from-list',
	'refund-approval': 'example-refund-approval',
};

/** A user agent of a browser: the approval link answers only a person's browser, not a program (README). */
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0.0.0 Safari/537.36';

const json = (body) => `'${JSON.stringify(body)}'`;

/**
 * Every command, by what it does. `sandboxUrl` and `apiKey` are the sandbox's, `webhookBaseUrl` where
 * n8n serves production webhooks (the webhook process in queue mode).
 */
export function tryItCommands({ sandboxUrl, apiKey, webhookBaseUrl }) {
	const inject = (body) =>
		`curl -s -X POST ${sandboxUrl}/__sandbox/inject/message -H 'content-type: application/json' -d ${json(body)}`;
	const dana = (text) =>
		inject({ channel: 'business', from: { phone: '4915198765432', name: 'Dana' }, text });
	const sendMessage = (body) =>
		`curl -s -X POST ${sandboxUrl}/api/v1/tools/send_message -H 'authorization: Bearer ${apiKey}' -H "idempotency-key: dev-$(date +%s%N)" -H 'content-type: application/json' -d ${json(body)}`;
	const ownMessage = (text) =>
		sendMessage({ channel: 'business', phoneNumber: '4915198765432', text });
	const start = (example) => `curl -s -X POST ${webhookBaseUrl}/webhook/${START_PATHS[example]}`;
	return {
		replyBot: inject({ from: { phone: '4915112345678', name: 'Alice' }, text: 'Hello!' }),
		quickMessages: ['hi', 'I ordered yesterday', 'order 4411', 'where is it??'].map(dana),
		pause: ownMessage('/bot off'),
		resume: ownMessage('/bot on'),
		handOver: dana('can I talk to a human?'),
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
		campaign: start('campaign-from-list'),
		refund: start('refund-approval'),
		// The newest question's Approve link, opened as a browser would.
		// The manager answers in the chat: the reply bot's trigger passes the answer on (Answer in Chat).
		approveInChat: inject({ from: { phone: '447700900123', name: 'Bob' }, text: '1' }),
		approve: `curl -s -o /dev/null -w 'Approve: HTTP %{http_code}\\n' -A '${BROWSER}' "$(curl -s ${sandboxUrl}/__sandbox/sends | grep -o 'Approve: [^"\\\\]*' | tail -n 1 | cut -c 10-)"`,
		// An order update to the sandbox's number on no network (DEMO.unregisteredPhone): accepted, then failed.
		undelivered: sendMessage({
			channel: 'business',
			phoneNumber: '4915700000000',
			templateName: 'order_update',
			templateLanguage: 'en',
			templateParameters: ['Erin', '1044', 'shipped'],
			recipientOptInConfirmed: true,
		}),
	};
}
