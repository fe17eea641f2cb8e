import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { slowDrip } from './slowDrip';

/** One scripted answer. The server replays the steps in order, then repeats the last one. */
export type ScriptStep =
	| { status: number; headers?: Record<string, string>; body?: unknown; delayMs?: number }
	/** Reads the whole request, then closes the socket without answering ("drop after commit"). */
	| { drop: true }
	/** Reads the request and never answers (until the server stops). */
	| { hang: true }
	/** Answers 200 at once, then trickles the JSON `body` one byte every `everyMs` (a slow-drip server). */
	| { drip: { everyMs: number; body: unknown } };

export interface RecordedRequest {
	method: string;
	path: string;
	headers: IncomingMessage['headers'];
	rawBody: string;
	body: unknown;
}

export interface ScriptedServer {
	url: string;
	requests: RecordedRequest[];
	/** Replace the remaining script. */
	script(steps: ScriptStep[]): void;
	stop(): Promise<void>;
}

let requestCounter = 0;

function parse(text: string): unknown {
	if (text.length === 0) return undefined;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

/**
 * A loopback HTTP server answering from a script, for transport-level behaviour the sandbox does
 * not model on demand: exact status sequences, dropped connections, hangs, odd bodies.
 */
export async function startScriptedServer(initial: ScriptStep[] = []): Promise<ScriptedServer> {
	let steps = [...initial];
	const requests: RecordedRequest[] = [];

	const answer = (step: ScriptStep, req: IncomingMessage, res: ServerResponse) => {
		if ('drop' in step) {
			req.socket.destroy();
			return;
		}
		if ('hang' in step) return;
		if ('drip' in step) {
			slowDrip(
				res,
				200,
				{ 'content-type': 'application/json' },
				Buffer.from(JSON.stringify(step.drip.body)),
				step.drip.everyMs,
			);
			return;
		}
		const send = () => {
			const isText = typeof step.body === 'string';
			const payload =
				step.body === undefined ? '' : isText ? (step.body as string) : JSON.stringify(step.body);
			res.writeHead(step.status, {
				'content-type': isText ? 'text/html' : 'application/json',
				'x-request-id': `req_scripted_${++requestCounter}`,
				...Object.fromEntries(
					Object.entries(step.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
				),
			});
			res.end(payload);
		};
		if (step.delayMs) setTimeout(send, step.delayMs);
		else send();
	};

	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const rawBody = Buffer.concat(chunks).toString('utf8');
			requests.push({
				method: req.method ?? '',
				path: req.url ?? '',
				headers: req.headers,
				rawBody,
				body: parse(rawBody),
			});
			const step = steps.length > 1 ? steps.shift() : steps[0];
			answer(
				step ?? { status: 500, body: { error: { code: 'script_empty', message: 'no step' } } },
				req,
				res,
			);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;

	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		script(next) {
			steps = [...next];
		},
		stop: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
