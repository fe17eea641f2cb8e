// n8n 2.x installs community packages from https://registry.npmjs.org only: another registry
// (N8N_COMMUNITY_PACKAGES_REGISTRY) is a licensed feature, and n8n passes `--registry` to npm on the
// command line, so no .npmrc can move it. What an unlicensed n8n does honour is a corporate HTTPS proxy
// (HTTPS_PROXY, NO_PROXY) with its own certificate authority (NODE_EXTRA_CA_CERTS). This is such a proxy,
// on 127.0.0.1: it answers CONNECT to registry.npmjs.org:443 with a certificate of a throwaway CA and
// hands the decrypted requests to the local registry; every other destination is refused, so nothing
// leaves the machine. Each request is recorded, so a test can show where n8n got the package.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { TLSSocket } from 'node:tls';

export const REGISTRY_HOST = 'registry.npmjs.org';

export interface RegistryProxy {
	url: string;
	/** The CA certificate n8n and npm must trust (NODE_EXTRA_CA_CERTS). */
	caFile: string;
	/** `GET /n8n-nodes-…` as the registry saw them, through the proxy. */
	requests: string[];
	/** CONNECT targets that were refused (anything but the registry). */
	refused: string[];
	/** The environment that sends an n8n's (and its npm's) registry traffic here, the rest direct. */
	env(): Record<string, string>;
	stop(): Promise<void>;
}

/** A CA and a certificate for the registry's host signed by it, made with Debian's openssl. */
function makeCertificates(folder: string) {
	mkdirSync(folder, { recursive: true });
	const file = (name: string) => join(folder, name);
	const openssl = (...args: string[]) =>
		execFileSync('openssl', args, { cwd: folder, stdio: 'pipe' });
	openssl(
		'req',
		'-x509',
		'-newkey',
		'rsa:2048',
		'-nodes',
		'-days',
		'2',
		'-keyout',
		'ca.key',
		'-out',
		'ca.pem',
		'-subj',
		'/CN=Local test registry proxy CA',
	);
	openssl(
		'req',
		'-newkey',
		'rsa:2048',
		'-nodes',
		'-keyout',
		'host.key',
		'-out',
		'host.csr',
		'-subj',
		`/CN=${REGISTRY_HOST}`,
	);
	writeFileSync(
		file('host.ext'),
		`subjectAltName=DNS:${REGISTRY_HOST}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`,
	);
	openssl(
		'x509',
		'-req',
		'-in',
		'host.csr',
		'-CA',
		'ca.pem',
		'-CAkey',
		'ca.key',
		'-CAcreateserial',
		'-days',
		'2',
		'-out',
		'host.pem',
		'-extfile',
		'host.ext',
	);
	return {
		caFile: file('ca.pem'),
		key: readFileSync(file('host.key')),
		cert: readFileSync(file('host.pem')),
	};
}

/** Starts the proxy in front of the registry at `registryUrl` (http://127.0.0.1:<port>). */
export async function startRegistryProxy(
	registryUrl: string,
	folder: string,
): Promise<RegistryProxy> {
	const { caFile, key, cert } = makeCertificates(folder);
	const target = new URL(registryUrl);
	const requests: string[] = [];
	const refused: string[] = [];

	// The registry behind the proxy sees the public host name, so the tarball links it writes point back here.
	const forward = (incoming: IncomingMessage, response: ServerResponse) => {
		requests.push(`${incoming.method} ${incoming.url}`);
		const outgoing = request(
			{
				host: target.hostname,
				port: target.port,
				method: incoming.method,
				path: incoming.url,
				headers: { ...incoming.headers, host: REGISTRY_HOST, 'x-forwarded-proto': 'https' },
			},
			(answer) => {
				response.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(response);
			},
		);
		outgoing.on('error', () => response.destroy());
		incoming.pipe(outgoing);
	};
	const decrypted = createServer(forward);
	const sockets = new Set<Socket>();

	const proxy = createServer((incoming, response) => {
		// Plain-HTTP proxying is not offered: nothing n8n needs goes there.
		refused.push(`${incoming.method} ${incoming.url}`);
		response.writeHead(403).end();
	});
	proxy.on('connection', (socket: Socket) => {
		sockets.add(socket);
		socket.once('close', () => sockets.delete(socket));
	});
	proxy.on('connect', (incoming: IncomingMessage, socket: Socket, head: Buffer) => {
		if (incoming.url !== `${REGISTRY_HOST}:443`) {
			refused.push(`CONNECT ${incoming.url}`);
			socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
			return;
		}
		socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
		if (head.length > 0) socket.unshift(head);
		const secure = new TLSSocket(socket, { isServer: true, key, cert });
		secure.on('error', () => socket.destroy());
		decrypted.emit('connection', secure);
	});
	await new Promise<void>((resolveListen) => proxy.listen(0, '127.0.0.1', resolveListen));
	const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
	return {
		url,
		caFile,
		requests,
		refused,
		env: () => ({
			HTTPS_PROXY: url,
			HTTP_PROXY: url,
			// The sandbox and n8n's own addresses stay direct.
			NO_PROXY: '127.0.0.1,localhost',
			NODE_EXTRA_CA_CERTS: caFile,
			// npm checks certificates against its own list, not Node's extra ones: n8n's npm gets the CA as its cafile.
			npm_config_cafile: caFile,
		}),
		stop: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolveClose) => proxy.close(resolveClose));
		},
	};
}
