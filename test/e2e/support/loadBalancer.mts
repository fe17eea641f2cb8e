import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoadBalancer {
	url: string;
	/** Requests forwarded to each target, by its base URL. */
	forwarded: Record<string, number>;
	stop(): Promise<void>;
}

/**
 * One address in front of several webhook processes, as production puts them behind a load
 * balancer: each request goes to the next target in turn; a target that refuses the connection is
 * skipped. A target that dies while holding a request is not retried elsewhere (a POST is not
 * idempotent for a balancer): the sender sees a 502 and retries later, which is the point.
 */
export async function startLoadBalancer(targets: string[]): Promise<LoadBalancer> {
	const forwarded: Record<string, number> = Object.fromEntries(targets.map((t) => [t, 0]));
	let next = 0;

	function forward(req: IncomingMessage, res: ServerResponse, body: Buffer, tried: number) {
		if (tried >= targets.length) {
			res.writeHead(502).end('no webhook process reachable');
			return;
		}
		const target = targets[next++ % targets.length];
		const upstream = request(
			`${target}${req.url ?? ''}`,
			{ method: req.method, headers: { ...req.headers, host: new URL(target).host } },
			(answer) => {
				forwarded[target]++;
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
				answer.on('error', () => res.destroy());
			},
		);
		upstream.on('error', (error: NodeJS.ErrnoException) => {
			if (res.headersSent) res.destroy();
			else if (error.code === 'ECONNREFUSED') forward(req, res, body, tried + 1);
			else res.writeHead(502).end(`webhook process failed: ${error.code ?? error.message}`);
		});
		upstream.end(body);
	}

	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => forward(req, res, Buffer.concat(chunks), 0));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		forwarded,
		stop: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
