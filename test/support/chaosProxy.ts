import {
	Agent,
	createServer,
	request as httpRequest,
	type IncomingMessage,
	type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { slowDrip } from './slowDrip';

/*
 * A misbehaving network between the node and the sandbox, on loopback, independent of the
 * sandbox's own fault injection. Each request gets one fault, chosen by the caller (seeded):
 * the faults a real proxy, load balancer or captive portal produces, several of them after the
 * request has reached the service and taken effect.
 */

export const FAULTS = [
	'resetBeforeForward', // connection reset after reading the request, nothing forwarded
	'resetAfterForward', // forwarded (the write happened), reset before any response header
	'resetMidBody', // forwarded, headers and half the body sent, then reset
	'html502', // forwarded, then a gateway's HTML 502 instead of the answer
	'html200', // not forwarded: a captive portal's HTML page with 200
	'truncatedJson', // forwarded, the JSON cut in half (complete HTTP message)
	'emptyBody', // forwarded, 200 with an empty body
	'nullBody', // forwarded, 200 with the JSON `null`
	'redirect302', // not forwarded: 302 to another local port
	'redirect307', // not forwarded: 307 (which keeps method and body) to another local port
	'stall', // forwarded, then no answer at all
	'slowDrip', // forwarded, then the answer trickled a byte at a time, each byte well inside any time-out
] as const;

/** Between two bytes of a slow-drip answer. */
const DRIP_EVERY_MS = 100;

export type Fault = (typeof FAULTS)[number] | 'pass';

export interface ChaosProxyOptions {
	/** The service behind the proxy (the sandbox). */
	target: string;
	/** Where redirects point: another local port. */
	redirectTo: string;
	choose(request: { method: string; path: string; body: string }): Fault;
}

export interface ChaosProxy {
	url: string;
	/** How often each fault was dealt. */
	counts: Record<Fault, number>;
	stop(): Promise<void>;
}

interface Upstream {
	status: number;
	headers: IncomingMessage['headers'];
	body: Buffer;
}

const HTML = (title: string) =>
	`<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`;

export async function startChaosProxy(options: ChaosProxyOptions): Promise<ChaosProxy> {
	const target = new URL(options.target);
	const agent = new Agent({ keepAlive: true, maxSockets: 64 });
	const counts = Object.fromEntries([...FAULTS, 'pass'].map((fault) => [fault, 0])) as Record<
		Fault,
		number
	>;
	const sockets = new Set<Socket>();
	let ownUrl = '';

	const forward = (req: IncomingMessage, body: Buffer) =>
		new Promise<Upstream>((resolve, reject) => {
			const headers = { ...req.headers, host: target.host, 'content-length': String(body.length) };
			const upstream = httpRequest(
				{
					host: target.hostname,
					port: target.port,
					method: req.method,
					path: req.url,
					headers,
					agent,
				},
				(response) => {
					const chunks: Buffer[] = [];
					response.on('data', (chunk: Buffer) => chunks.push(chunk));
					response.on('end', () => {
						// As a reverse proxy would: links the service gives point at the proxy's address.
						const text = Buffer.concat(chunks).toString('utf8').split(options.target).join(ownUrl);
						resolve({
							status: response.statusCode ?? 502,
							headers: response.headers,
							body: Buffer.from(text),
						});
					});
					response.on('error', reject);
				},
			);
			upstream.on('error', reject);
			upstream.end(body);
		});

	const relayHeaders = (upstream: Upstream, length: number) => {
		const headers: Record<string, string> = {};
		for (const [name, value] of Object.entries(upstream.headers)) {
			if (
				value !== undefined &&
				!['content-length', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)
			)
				headers[name] = String(value);
		}
		headers['content-length'] = String(length);
		return headers;
	};

	const deal = async (fault: Fault, req: IncomingMessage, res: ServerResponse, body: Buffer) => {
		switch (fault) {
			case 'resetBeforeForward':
				return void req.socket.destroy();
			case 'html200':
				res.writeHead(200, { 'content-type': 'text/html' });
				return void res.end(HTML('Please sign in to the network'));
			case 'redirect302':
			case 'redirect307':
				res.writeHead(fault === 'redirect302' ? 302 : 307, {
					location: `${options.redirectTo}${req.url ?? '/'}`,
				});
				return void res.end();
			default:
				break;
		}
		const upstream = await forward(req, body);
		switch (fault) {
			case 'resetAfterForward':
				return void req.socket.destroy();
			case 'stall':
				return;
			case 'slowDrip':
				return void slowDrip(
					res,
					upstream.status,
					relayHeaders(upstream, upstream.body.length),
					upstream.body,
					DRIP_EVERY_MS,
				);
			case 'resetMidBody': {
				res.writeHead(upstream.status, relayHeaders(upstream, upstream.body.length));
				const half = upstream.body.subarray(0, Math.max(1, Math.floor(upstream.body.length / 2)));
				return void res.write(half, () => req.socket.destroy());
			}
			case 'html502':
				res.writeHead(502, { 'content-type': 'text/html' });
				return void res.end(HTML('502 Bad Gateway'));
			case 'truncatedJson': {
				const cut = upstream.body.subarray(0, Math.floor(upstream.body.length / 2));
				res.writeHead(upstream.status, relayHeaders(upstream, cut.length));
				return void res.end(cut);
			}
			case 'emptyBody':
			case 'nullBody': {
				const text = fault === 'nullBody' ? 'null' : '';
				res.writeHead(200, {
					...relayHeaders(upstream, text.length),
					'content-type': 'application/json',
				});
				return void res.end(text);
			}
			default:
				res.writeHead(upstream.status, relayHeaders(upstream, upstream.body.length));
				return void res.end(upstream.body);
		}
	};

	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body = Buffer.concat(chunks);
			const fault = options.choose({
				method: req.method ?? 'GET',
				path: req.url ?? '/',
				body: body.toString('utf8'),
			});
			counts[fault]++;
			deal(fault, req, res, body).catch(() => req.socket.destroy());
		});
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	ownUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		url: ownUrl,
		counts,
		stop: async () => {
			for (const socket of sockets) socket.destroy();
			agent.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
