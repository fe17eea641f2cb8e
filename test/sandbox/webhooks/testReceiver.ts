import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { vi } from 'vitest';

export interface ReceivedRequest {
	method: string;
	path: string;
	headers: IncomingMessage['headers'];
	body: Buffer;
}

/** Generous for a loaded machine; polling often keeps the suite fast when it is not. */
export const WAIT = { timeout: 15_000, interval: 5 };

/** Decides the answer to each request; returning 'hang' never answers (for time-outs). */
export type Responder = (
	request: ReceivedRequest,
	index: number,
) => number | 'hang' | { status: number; location: string };

/** A real HTTP receiver on loopback that records every request it gets. */
export async function startReceiver(responder: Responder = () => 200) {
	const received: ReceivedRequest[] = [];
	const hanging = new Set<ServerResponse>();
	let respond = responder;
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const request = {
				method: req.method ?? '',
				path: req.url ?? '',
				headers: req.headers,
				body: Buffer.concat(chunks),
			};
			received.push(request);
			const answer = respond(request, received.length - 1);
			if (answer === 'hang') {
				hanging.add(res);
				return;
			}
			const { status, location } =
				typeof answer === 'number' ? { status: answer, location: undefined } : answer;
			res.writeHead(status, location ? { location } : {}).end('ok');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/hook`,
		received,
		setResponder(next: Responder) {
			respond = next;
		},
		/** Waits (in real time, briefly) until `count` requests have arrived. */
		async waitFor(count: number) {
			await vi.waitFor(() => {
				if (received.length < count) throw new Error(`received ${received.length} of ${count}`);
			}, WAIT);
			return received;
		},
		/** Answers every request left hanging so far. */
		releaseHanging(status = 200) {
			for (const res of hanging) res.writeHead(status).end('ok');
			hanging.clear();
		},
		async close() {
			for (const res of hanging) res.destroy();
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * Checks a delivery exactly as the spec's Signing section describes, with node:crypto only, so
 * a mistake shared by the sandbox and the standardwebhooks library cannot hide. Returns how
 * many of the given secrets produced one of the header's signatures.
 */
export function matchingSignatures(request: ReceivedRequest, secrets: string[]): number {
	const id = String(request.headers['webhook-id']);
	const timestamp = String(request.headers['webhook-timestamp']);
	const sent = String(request.headers['webhook-signature']).split(' ');
	const signedContent = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), request.body]);
	return secrets.filter((secret) => {
		const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
		const expected = Buffer.from(
			`v1,${createHmac('sha256', key).update(signedContent).digest('base64')}`,
		);
		return sent.some(
			(candidate) =>
				candidate.length === expected.length && timingSafeEqual(Buffer.from(candidate), expected),
		);
	}).length;
}
