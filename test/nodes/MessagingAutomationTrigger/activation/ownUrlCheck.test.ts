import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { SandboxHandle } from '../../../sandbox';
import type { N8nWebhookHost } from '../../../support/n8nWebhook';
import { startTriggerHost, useSandbox } from '../fixtures';

/*
 * Publishing a trigger with Pass Answers to Send and Wait on checks that n8n answers at its own
 * public webhook address, where the questions' links start: when it does not, the publication
 * fails with the reason (n8n's publication status), as a bad key does, instead of every answer
 * failing later in silence.
 */

let sandbox: SandboxHandle;
useSandbox((started) => void (sandbox = started));

/** A port nothing listens on: n8n's WEBHOOK_URL as seen from inside a container without hairpin. */
let closedOrigin = '';
/** A proxy in front of nothing, and how many requests n8n made to it (the service's POSTs aside). */
let proxy: Server;
let proxyOrigin = '';
let proxyRequests = 0;
const hosts: N8nWebhookHost[] = [];

beforeAll(async () => {
	const probe = createServer();
	await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
	closedOrigin = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
	await new Promise<void>((resolve) => probe.close(() => resolve()));
	proxy = createServer((req, res) => {
		if (req.method !== 'POST') proxyRequests++;
		res.writeHead(502, { 'Content-Type': 'text/html' });
		res.end('<html><body>502 Bad Gateway</body></html>');
	});
	await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
	proxyOrigin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
	await new Promise<void>((resolve) => proxy.close(() => resolve()));
});

afterEach(async () => {
	await Promise.all(hosts.splice(0).map(async (host) => await host.stop()));
});

async function trigger(answersToSendAndWait: boolean, publicOrigin?: string) {
	const host = await startTriggerHost({
		baseUrl: sandbox.url,
		apiKey: sandbox.keys.owner,
		parameters: { events: ['message.received'], answersToSendAndWait },
	});
	host.publicOrigin = publicOrigin;
	hosts.push(host);
	return host;
}

const endpoints = () =>
	sandbox.webhooks.endpoints().filter((endpoint) => endpoint.status !== 'deleted');

describe('publishing with Pass Answers to Send and Wait', () => {
	it('fails when n8n cannot reach its own webhook URL, naming it and why, and registers nothing', async () => {
		const host = await trigger(true, closedOrigin);
		const publishing = host.activate('production', 'activate');

		// n8n's publication status shows only the message: it carries why and what to do.
		await expect(publishing).rejects.toMatchObject({
			message: `This n8n cannot reach its own webhook URL ${host.url('production')} (connection refused), which Pass Answers to Send and Wait needs: make that address reachable from the n8n server itself, or turn the option off`,
			description: expect.stringMatching(
				/^Asked when the workflow was published, it got: connect ECONNREFUSED .*turn off Pass Answers to Send and Wait/,
			) as unknown,
		});
		expect(endpoints()).toHaveLength(0);
	});

	it('fails when what answers at that address is a proxy with nothing behind it (HTTP 502)', async () => {
		const host = await trigger(true, proxyOrigin);
		proxyRequests = 0;

		await expect(host.activate('production', 'update')).rejects.toMatchObject({
			message: expect.stringMatching(
				new RegExp(`^This n8n cannot reach its own webhook URL \\S+ \\(HTTP 502\\), which Pass`),
			) as unknown,
			description: expect.stringContaining('it got: HTTP 502.') as unknown,
		});
		expect(proxyRequests).toBe(1);
	});

	it('publishes when n8n answers at its own address, whatever it answers below 500 (its 404 for a GET)', async () => {
		const host = await trigger(true);
		await host.activate('production', 'activate');

		expect(endpoints().map((endpoint) => endpoint.url)).toEqual([host.url('production')]);
	});

	it("does not check at n8n's start or on a leader change, when its own server may not answer yet", async () => {
		for (const activation of ['init', 'leadershipChange'] as const) {
			const host = await trigger(true, proxyOrigin);
			proxyRequests = 0;
			await host.activate('production', activation);
			expect(proxyRequests).toBe(0);
		}
		expect(endpoints()).toHaveLength(2);
	});

	it('does not check with Pass Answers off: the trigger needs no request to n8n itself', async () => {
		const host = await trigger(false, proxyOrigin);
		proxyRequests = 0;
		await host.activate('production', 'activate');

		expect(proxyRequests).toBe(0);
		expect(endpoints()).toHaveLength(1);
	});
});
