import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for n8n's waiting webhooks behind Send and Wait's resume links, for the trigger's
 * answer tests: each test decides how n8n answers a probe (a request naming no message) or an
 * offer (a request naming the messages offered). The node's own side of that exchange is tested in
 * test/nodes/MessagingAutomation/actions/sendAndWait/chatReply.test.ts.
 */

/** The rules a question takes answers by, as the node's probe gives them: 1 approves, 2 declines. */
export const APPROVAL_RULES = {
	rules: {
		kind: 'approval',
		choices: [
			{ approved: true, number: '1', words: ['Approve', 'yes'] },
			{ approved: false, number: '2', words: ['Decline', 'no'] },
		],
	},
	groupNumbers: [],
};

export interface WaitingRequest {
	/** The link's `q` parameter: which question was asked. */
	key: string;
	/** The messages offered; none for a probe. */
	messageIds: string[];
	body: { chatAnswer?: { messageIds?: string[]; conversationId?: string } };
}

export type Reply = (status: number, json: unknown) => void;

export interface WaitingWebhook {
	origin: string;
	close(): Promise<void>;
}

export async function startWaitingWebhook(
	answer: (request: WaitingRequest, reply: Reply) => void,
): Promise<WaitingWebhook> {
	let origin = '';
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body = JSON.parse(
				Buffer.concat(chunks).toString('utf8') || '{}',
			) as WaitingRequest['body'];
			const key = new URL(req.url ?? '', origin).searchParams.get('q') ?? '';
			answer({ key, messageIds: body.chatAnswer?.messageIds ?? [], body }, (status, json) => {
				res.writeHead(status, { 'Content-Type': 'application/json' });
				res.end(JSON.stringify(json));
			});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		origin,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
