import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { readServiceCredential } from '../../../../nodes/shared/transport/credential';
import { DownloadError, downloadLink } from '../../../../nodes/shared/transport/download';
import { startKeyTrap, type KeyTrap } from '../../../support/keyTrap';
import { credentialProbe } from '../../../support/credentialProbe';

/*
 * Downloads through n8n-core's real request helpers: the key only on the first request to the
 * service's own origin, redirects followed without it and refused towards other local ports,
 * one deadline for the whole download, a size cap on declared and on streamed bodies.
 */

const API_KEY = 'mk_live_downloadSecret_77';

let serviceUrl = '';
let trap: KeyTrap;
const seen: Array<{ path: string; authorization?: string }> = [];
const service = createServer((req: IncomingMessage, res) => {
	seen.push({ path: req.url ?? '', authorization: req.headers.authorization });
	switch (req.url) {
		case '/file':
			return void res.writeHead(200, { 'content-type': 'text/plain' }).end('file bytes');
		case '/same-redirect':
			return void res.writeHead(302, { location: '/file' }).end();
		case '/away':
			return void res.writeHead(307, { location: `${trap.url}/stolen` }).end();
		case '/loop':
			return void res.writeHead(302, { location: '/loop' }).end();
		case '/big-declared':
			return void res.writeHead(200, { 'content-length': '5000' }).end('x'.repeat(5000));
		case '/big-streamed':
			res.writeHead(200, { 'content-type': 'application/octet-stream' });
			for (let index = 0; index < 8; index++) res.write('y'.repeat(500));
			return void res.end();
		case '/stall-body':
			res.writeHead(200, { 'content-length': '100' });
			return void res.write('partial');
		default:
			return; // /stall: never answers
	}
});

beforeAll(async () => {
	trap = await startKeyTrap([API_KEY]);
	await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
	serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
});
afterAll(async () => {
	await trap.stop();
	service.closeAllConnections();
	await new Promise<void>((resolve) => service.close(() => resolve()));
});

async function download(
	path: string,
	options: { timeoutMs?: number; maxBytes?: number; link?: string } = {},
) {
	const context = credentialProbe({
		apiKey: API_KEY,
		baseUrl: `${serviceUrl}/`,
		authScheme: 'bearer',
	});
	seen.length = 0;
	const credential = await readServiceCredential(context);
	return await downloadLink(context, options.link ?? `${serviceUrl}${path}`, {
		credential,
		timeoutMs: options.timeoutMs ?? 5_000,
		maxBytes: options.maxBytes,
	}).then(
		(file) => ({ file, error: undefined }),
		(error: unknown) => ({ file: undefined, error: error as Error }),
	);
}

describe('downloadLink', () => {
	it('sends the key on the service origin only, and follows a same-origin redirect without it', async () => {
		const direct = await download('/file');
		expect(direct.file?.data.toString()).toBe('file bytes');
		expect(seen).toEqual([{ path: '/file', authorization: `Bearer ${API_KEY}` }]);

		const redirected = await download('/same-redirect');
		expect(redirected.file?.data.toString()).toBe('file bytes');
		expect(seen).toEqual([
			{ path: '/same-redirect', authorization: `Bearer ${API_KEY}` },
			{ path: '/file', authorization: undefined },
		]);
	});

	it('refuses a redirect to another local port before any request: the key never leaves', async () => {
		const { error } = await download('/away');
		expect(error).toBeInstanceOf(DownloadError);
		expect(error?.message).toMatch(/a redirect was refused: .*private, loopback or link-local/);
		expect(trap.requests).toBe(0);
		expect(trap.keyed).toBe(0);
	});

	it.each([
		['data: URLs', 'data:text/plain;base64,aGk=', /only http and https/],
		['file: URLs', 'file:///etc/passwd', /only http and https/],
		['the metadata address', 'http://169.254.169.254/latest/meta-data', /link-local/],
		['another port of the loopback', 'http://127.0.0.1:1/file', /loopback/],
		[
			'a malformed percent-escape, before downloading',
			'SERVICE/fi%zzle',
			/malformed percent-escape/,
		],
	])('refuses %s', async (_name, link, reason) => {
		const { error } = await download('', { link: link.replace('SERVICE', serviceUrl) });
		expect(error).toBeInstanceOf(DownloadError);
		expect(error?.message).toMatch(reason);
		expect(seen).toEqual([]);
	});

	it('stops after a few redirects', async () => {
		const { error } = await download('/loop');
		expect(error?.message).toMatch(/redirected more than 3 times/);
		expect(seen).toHaveLength(4);
	});

	it('caps the size, whether the body declares it or streams it', async () => {
		expect((await download('/big-declared', { maxBytes: 1_000 })).error?.message).toMatch(
			/larger than the .* download limit/,
		);
		expect((await download('/big-streamed', { maxBytes: 1_000 })).error?.message).toMatch(
			/larger than the .* download limit/,
		);
		expect((await download('/big-streamed', { maxBytes: 10_000 })).file?.data).toHaveLength(4_000);
	});

	it('gives up at the deadline, whether the headers or the body stall', async () => {
		for (const path of ['/stall', '/stall-body']) {
			const { error } = await download(path, { timeoutMs: 300 });
			expect(error).toBeInstanceOf(DownloadError);
			expect(error?.message).toBe('the download did not complete within 0.3 s');
		}
	});
});
