import { afterEach, describe, expect, it, vi } from 'vitest';

import { DEMO, type SandboxHandle } from '../../../sandbox';
import { signatureHeaders } from '../../../sandbox/webhooks/signing';
import { startChaosProxy } from '../../../support/chaosProxy';
import { startKeyTrap } from '../../../support/keyTrap';
import type { N8nWebhookHost } from '../../../support/n8nWebhook';
import { startRefusingProxy, startTriggerHost, useSandbox, waitFor } from '../fixtures';

let sandbox: SandboxHandle;
useSandbox((started) => {
	sandbox = started;
});
let trigger: N8nWebhookHost;

afterEach(async () => {
	vi.useRealTimers();
	await trigger?.stop();
});

async function activeTrigger(parameters: Record<string, unknown> = {}) {
	trigger = await startTriggerHost({
		baseUrl: sandbox.url,
		apiKey: sandbox.keys.owner,
		parameters: { events: ['message.received'], ...parameters } as never,
	});
	await trigger.activate('production');
	return trigger;
}

/** Every delivery attempt of message events to `url`, in arrival order. */
const messageAttempts = (url: string) =>
	sandbox.webhooks
		.attempts()
		.filter((attempt) => attempt.url === url && attempt.body?.includes('"message.'));

/** The first recorded message delivery, once the sandbox has logged its outcome. */
const recordedDelivery = (url: string) => messageAttempts(url)[0];

const answered = (status: number) =>
	trigger.requests.filter((request) => request.status === status);

function inject(text: string, extra: Record<string, unknown> = {}) {
	const result = sandbox.inject.injectMessage({ from: DEMO.alice, text, ...extra });
	expect(result.saved).toBe(true);
	return result;
}

async function post(url: string, headers: Record<string, string>, body: Buffer | string) {
	const response = await fetch(url, {
		method: 'POST',
		headers: { ...headers, 'content-type': 'application/json' },
		body,
	});
	return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('trigger end to end: sandbox → signed delivery → n8n webhook context → WorkflowExecute', () => {
	it('emits exactly one item per event, with the envelope and reply-ready fields', async () => {
		await activeTrigger();
		for (const text of ['first', 'second', 'third']) inject(text);

		await waitFor(() => trigger.executions.length === 3);
		const items = trigger.executions.map((execution) => execution.items);
		expect(items.every((list) => list.length === 1)).toBe(true);
		const json = items.map(([item]) => item.json);
		expect(json.map((event) => event.text).sort()).toEqual(['first', 'second', 'third']);
		expect(new Set(json.map((event) => event.event_id)).size).toBe(3);
		expect(json[0]).toMatchObject({
			type: 'message.received',
			event_type: 'message.received',
			account_id: DEMO.accountId,
			api_version: '2026-10-01',
			channel: 'qr',
			conversation_id: `${DEMO.alice.phone}@s.whatsapp.net`,
			sender: { phone: DEMO.alice.phone, name: DEMO.alice.name },
		});
		expect(json[0].event_id).toMatch(/^evt_/);
		expect(json[0].event_id).toBe(json[0].id);
		expect(json[0].message_id).toBe((json[0].data as { message: { id: string } }).message.id);
		expect(
			messageAttempts(trigger.url('production')).every((attempt) => attempt.statusCode === 200),
		).toBe(true);
	});

	it('starts one execution for a duplicated delivery, through static data saved between requests', async () => {
		await activeTrigger();
		sandbox.webhooks.faults.duplicateNext(1);
		inject('only once');

		await waitFor(
			() => messageAttempts(trigger.url('production')).length === 2 && answered(200).length >= 2,
		);
		expect(trigger.executions).toHaveLength(1);
		expect(
			trigger.requests.filter((request) => (request.body as { duplicate?: boolean })?.duplicate),
		).toHaveLength(1);
		const [[storedId]] = (
			trigger.savedStaticData['node:Trigger'] as { recentEvents: Array<[string, number]> }
		).recentEvents;
		expect(storedId).toBe(trigger.executions[0].items[0].json.event_id);
	});

	it("runs an event once through the service's retry when n8n could not record its run and answered 500", async () => {
		await activeTrigger();
		trigger.failToRecord(1);
		inject('recorded on the second try');
		await waitFor(() => messageAttempts(trigger.url('production'))[0]?.statusCode === 500);
		expect(trigger.executions).toHaveLength(0);

		sandbox.clock.advance(40_000);
		await waitFor(() => messageAttempts(trigger.url('production'))[1]?.statusCode === 200, 20_000);
		await trigger.settled();
		expect(trigger.executions[0].items[0].json.text).toBe('recorded on the second try');
		expect(messageAttempts(trigger.url('production')).map((attempt) => attempt.statusCode)).toEqual(
			[500, 200],
		);
		// Back to the host's time, for the signatures of the tests after this one.
		sandbox.clock.set(Date.now());
	});

	it('starts exactly one execution per event under concurrent redelivery, with a database-like gap in saving static data', async () => {
		const secret = `whsec_${Buffer.from('concurrent-dedupe-secret-32bytes').toString('base64')}`;
		trigger = await startTriggerHost({
			baseUrl: sandbox.url,
			apiKey: sandbox.keys.owner,
			parameters: {
				registration: 'dashboard',
				signingSecret: secret,
				events: ['message.received'],
			} as never,
		});
		trigger.staticDataGapMs = 25;
		await trigger.activate('production');
		const deliveries = Array.from({ length: 20 }, (_, index) => {
			const body = JSON.stringify({
				id: `evt_concurrent_${index}`,
				type: 'message.received',
				created_at: new Date().toISOString(),
				api_version: '2026-01-01',
				account_id: DEMO.accountId,
				data: {
					message: {
						id: `msg_${index}`,
						text: `concurrent ${index}`,
						channel: 'qr',
						from_me: false,
					},
				},
			});
			return {
				headers: signatureHeaders([secret], `msg_delivery_${index}`, Date.now(), body),
				body,
			};
		});
		// Each event twice at the same instant, then all of it once more while the first saves are still landing.
		const deliverAll = () =>
			Promise.all(
				deliveries.flatMap(({ headers, body }) => [
					post(trigger.url('production'), headers, body),
					post(trigger.url('production'), headers, body),
				]),
			);
		const answers = [...(await deliverAll()), ...(await deliverAll())];
		await trigger.settled();

		expect(answers.every((answer) => answer.status === 200)).toBe(true);
		expect(answers.filter((answer) => answer.body.duplicate === true)).toHaveLength(60);
		expect(trigger.executions).toHaveLength(20);
		expect(
			new Set(trigger.executions.map((execution) => execution.items[0].json.event_id)).size,
		).toBe(20);
	});

	it('runs twice for a duplicated delivery when duplicate skipping is off', async () => {
		await activeTrigger({ options: { deduplicate: false } });
		sandbox.webhooks.faults.duplicateNext(1);
		inject('twice');
		await waitFor(() => trigger.executions.length === 2);
		expect(trigger.executions[0].items[0].json.event_id).toBe(
			trigger.executions[1].items[0].json.event_id,
		);
	});

	it('answers 401 to a tampered delivery and starts nothing', async () => {
		await activeTrigger();
		inject('original');
		const attempt = await waitFor(
			() => trigger.executions.length === 1 && recordedDelivery(trigger.url('production')),
		);
		const tampered = Buffer.from(
			(attempt.body as Buffer).toString('utf8').replace('original', 'tampered'),
		);

		const answer = await post(trigger.url('production'), attempt.headers, tampered);
		expect(answer).toEqual({
			status: 401,
			body: { error: 'invalid_signature', reason: 'signature_mismatch' },
		});
		const unsigned = await post(trigger.url('production'), {}, attempt.body as Buffer);
		expect(unsigned.status).toBe(401);
		expect(trigger.executions).toHaveLength(1);
	});

	it('suppresses a replay within the window and answers 401 once the timestamp is stale', async () => {
		await activeTrigger();
		inject('replay me');
		const attempt = await waitFor(
			() => trigger.executions.length === 1 && recordedDelivery(trigger.url('production')),
		);

		const replay = await post(trigger.url('production'), attempt.headers, attempt.body as Buffer);
		expect(replay).toEqual({ status: 200, body: { received: true, duplicate: true } });

		vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 301_000 });
		const late = await post(trigger.url('production'), attempt.headers, attempt.body as Buffer);
		expect(late).toEqual({
			status: 401,
			body: { error: 'invalid_signature', reason: 'timestamp_too_old' },
		});
		expect(trigger.executions).toHaveLength(1);
	});

	it("leaves a run's delivery for n8n to answer once the run is recorded, one with a file to download too (the file is downloaded in the run)", async () => {
		await activeTrigger({ options: { downloadAttachments: true } });
		inject('no file');
		// The endpoint's webhook.test event comes first, answered by the node: nothing runs.
		const runAnswers = () =>
			trigger.requests.filter((request) => !('ignored' in (request.body as object)));
		await waitFor(() => trigger.executions.length === 1 && runAnswers().length === 1);
		// n8n's answer (after the run), carrying the node's webhookResponse.
		expect(runAnswers()[0]).toMatchObject({ status: 200, body: { received: true } });
		expect(runAnswers()[0].answeredBy).toBe('n8n');
		inject('see file', {
			attachment: { fileName: 'receipt.png', mimeType: 'image/png', content: 'PNG receipt bytes' },
		});
		await waitFor(() => trigger.executions.length === 2 && runAnswers().length === 2);
		expect(runAnswers()[1]).toMatchObject({ status: 200, body: { received: true } });
		expect(runAnswers()[1].answeredBy).toBe('n8n');
		expect(trigger.executions[1].items[0].binary?.data).toMatchObject({ fileName: 'receipt.png' });
	});

	// Review 43, finding 3 (a9cbef3): a delivery with a file was answered 200 before its run was
	// recorded, so a run n8n could not record was lost for good.
	it("runs a message with a file through the service's retry when n8n could not record its run", async () => {
		await activeTrigger({ options: { downloadAttachments: true } });
		trigger.failToRecord(1);
		inject('photo of the receipt', {
			attachment: {
				fileName: 'receipt.png',
				mimeType: 'image/png',
				content: 'PNG receipt bytes',
			},
		});
		await waitFor(() => messageAttempts(trigger.url('production'))[0]?.completedAt);
		await trigger.settled();
		expect(trigger.executions).toHaveLength(0);
		try {
			sandbox.clock.advance(40_000);
			await waitFor(() => trigger.executions.length === 1, 5000);
			expect(trigger.executions[0].items[0].binary?.data).toMatchObject({
				fileName: 'receipt.png',
			});
		} finally {
			await trigger.settled();
			sandbox.clock.set(Date.now());
		}
	});

	it('downloads a QR attachment into binary data', async () => {
		await activeTrigger({ options: { downloadAttachments: true } });
		inject('see file', {
			attachment: { fileName: 'receipt.png', mimeType: 'image/png', content: 'PNG receipt bytes' },
		});

		await waitFor(() => trigger.executions.length === 1);
		const [item] = trigger.executions[0].items;
		expect(item.binary?.data).toMatchObject({ fileName: 'receipt.png', mimeType: 'image/png' });
		expect(Buffer.from(item.binary?.data.data ?? '', 'base64').toString()).toBe(
			'PNG receipt bytes',
		);
		expect(sandbox.calls().filter((call) => call.tool === 'get_attachment_link')).toHaveLength(1);
	});

	it('refuses a download link on another loopback origin than the service: no request, a reason in the item', async () => {
		const proxy = await startRefusingProxy(sandbox.url);
		try {
			trigger = await startTriggerHost({
				baseUrl: proxy.url,
				apiKey: sandbox.keys.owner,
				parameters: {
					events: ['message.received'],
					options: { downloadAttachments: true, binaryPropertyName: 'file' },
				} as never,
			});
			await trigger.activate('production');
			inject('elsewhere', {
				attachment: { fileName: 'n.txt', mimeType: 'text/plain', content: 'note' },
			});
			await waitFor(() => trigger.executions.length === 1);
			const [item] = trigger.executions[0].items;
			// The service (the proxy) answered with a link on the sandbox's port: same host, another origin.
			expect(item.binary).toBeUndefined();
			expect(String((item.json.attachment_download as { error?: string }).error)).toMatch(
				/private, loopback or link-local address \(127\.0\.0\.1:\d+\)/,
			);
			expect(proxy.seen).toContain('POST /api/v1/tools/get_attachment_link');
			expect(proxy.seen.some((request) => request.includes('/files/'))).toBe(false);
		} finally {
			await proxy.stop();
		}
	});

	it('never sends the key along a redirect of the download link', async () => {
		const trap = await startKeyTrap([sandbox.keys.owner]);
		const proxy = await startChaosProxy({
			target: sandbox.url,
			redirectTo: trap.url,
			choose: ({ path }) => (path.startsWith('/files/') ? 'redirect307' : 'pass'),
		});
		try {
			trigger = await startTriggerHost({
				baseUrl: proxy.url,
				apiKey: sandbox.keys.owner,
				parameters: {
					events: ['message.received'],
					options: { downloadAttachments: true },
				} as never,
			});
			await trigger.activate('production');
			inject('redirected', {
				attachment: { fileName: 'r.txt', mimeType: 'text/plain', content: 'redirected' },
			});
			await waitFor(() => trigger.executions.length === 1);
			const [item] = trigger.executions[0].items;
			expect(item.binary).toBeUndefined();
			expect(String((item.json.attachment_download as { error?: string }).error)).toMatch(
				/a redirect was refused: .*loopback/,
			);
			expect(proxy.counts.redirect307).toBe(1);
			expect({ requests: trap.requests, keyed: trap.keyed }).toEqual({ requests: 0, keyed: 0 });
		} finally {
			await proxy.stop();
			await trap.stop();
		}
	});

	it('does not try Business downloads and says why', async () => {
		await activeTrigger({ options: { downloadAttachments: true } });
		inject('business file', {
			channel: 'business',
			from: DEMO.carol,
			attachment: {
				fileName: 'a.pdf',
				mimeType: 'application/pdf',
				content: '%PDF',
				downloadAvailable: true,
			},
		});
		await waitFor(() => trigger.executions.length === 1);
		const [item] = trigger.executions[0].items;
		expect(item.binary).toBeUndefined();
		expect(item.json.attachment_download).toEqual({
			error: 'Business file downloads are not available through the API',
		});
		expect(sandbox.calls().filter((call) => call.tool === 'get_attachment_link')).toHaveLength(0);
	});

	it('filters by chat type and answers filtered events with 200 without an execution', async () => {
		await activeTrigger({ filters: { chatType: 'group' } });
		inject('one to one');
		inject('in the group', { group: DEMO.adminGroup.jid, from: DEMO.bob });
		await waitFor(
			() =>
				trigger.executions.length === 1 && messageAttempts(trigger.url('production')).length === 2,
		);
		expect(trigger.executions[0].items[0].json).toMatchObject({
			text: 'in the group',
			conversation_id: DEMO.adminGroup.jid,
		});
		expect(
			trigger.requests.some((request) =>
				(request.body as { ignored?: string })?.ignored?.includes('chat type'),
			),
		).toBe(true);
	});

	it('serves the test URL beside production; the test endpoint goes after its first execution', async () => {
		await activeTrigger();
		await trigger.activate('test');
		inject('to both');

		await waitFor(() => trigger.executions.length === 2 && !trigger.testListening);
		expect(trigger.executions.map((execution) => execution.kind).sort()).toEqual([
			'production',
			'test',
		]);
		const live = sandbox.webhooks.endpoints().filter((endpoint) => endpoint.status !== 'deleted');
		expect(live.map((endpoint) => endpoint.url)).toEqual([trigger.url('production')]);
	});

	it('verifies with the pasted secret in dashboard mode', async () => {
		trigger = await startTriggerHost({
			baseUrl: sandbox.url,
			apiKey: sandbox.keys.owner,
			parameters: { events: ['message.received'] },
		});
		const created = await fetch(`${sandbox.url}/api/v1/webhooks`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${sandbox.keys.owner}`,
				'content-type': 'application/json',
				'idempotency-key': 'dashboard-1',
			},
			body: JSON.stringify({ url: trigger.url('production'), event_types: ['message.received'] }),
		}).then(async (response) => (await response.json()) as { secret: string });
		trigger.setParameters({
			registration: 'dashboard',
			signingSecret: ` ${created.secret.slice('whsec_'.length)}\n`,
			events: ['message.received'],
		});
		await trigger.activate('production');

		inject('from the dashboard endpoint');
		await waitFor(() => trigger.executions.length === 1);
		trigger.setParameters({
			registration: 'dashboard',
			signingSecret: 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
			events: ['message.received'],
		});
		inject('wrong secret now');
		await waitFor(() =>
			answered(401).some(
				(request) => (request.body as { reason?: string }).reason === 'signature_mismatch',
			),
		);
		expect(trigger.executions).toHaveLength(1);
	});
});
