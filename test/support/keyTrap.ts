import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback listener standing for "another host": redirects point here, and it counts every
 * request and every request that carries one of `secrets` anywhere (request line, headers, body).
 * It answers like a plausible API (200 with a JSON object) so a client that followed a redirect
 * would also take a false success.
 */
export interface KeyTrap {
	url: string;
	requests: number;
	keyed: number;
	stop(): Promise<void>;
}

export async function startKeyTrap(secrets: readonly string[]): Promise<KeyTrap> {
	const trap = { requests: 0, keyed: 0 };
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			trap.requests++;
			const seen = [
				req.url ?? '',
				JSON.stringify(req.headers),
				Buffer.concat(chunks).toString('utf8'),
			].join('\n');
			if (secrets.some((secret) => secret !== '' && seen.includes(secret))) trap.keyed++;
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ message_id: 'trap', status: 'accepted', operation_id: 'op_trap' }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		get requests() {
			return trap.requests;
		},
		get keyed() {
			return trap.keyed;
		},
		stop: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
