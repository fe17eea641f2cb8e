import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { waitFor } from './context.mjs';

/**
 * Deliveries the test makes itself, signed as the service signs them: the suite can then time
 * every answer, send concurrent copies and deal one conversation to several webhook processes.
 */

/** A message.received event for a message the sandbox saved, as the service would deliver it. */
export function messageReceivedEvent(message: unknown): string {
	return JSON.stringify({
		id: `evt_${randomUUID().replaceAll('-', '')}`,
		type: 'message.received',
		created_at: new Date().toISOString(),
		api_version: '2026-10-01',
		account_id: 'acc_demo',
		data: { message },
	});
}

/**
 * Posts `body` signed with `secret` (Standard Webhooks) as sent at `now`, the service's time (a
 * test that moves the sandbox clock by hand passes it: a message stamped after its delivery was
 * sent teaches the trigger nothing about the service's clock); the trigger's status and answer.
 */
export async function postSigned(
	url: string,
	secret: string,
	body: string,
	webhookId = `msg_${randomUUID().replaceAll('-', '')}`,
	now = new Date(),
): Promise<{ status: number; answer: Record<string, unknown> }> {
	const response = await fetch(url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'webhook-id': webhookId,
			'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
			'webhook-signature': new Webhook(secret).sign(webhookId, now, body),
		},
		body,
	});
	return { status: response.status, answer: (await response.json()) as Record<string, unknown> };
}

/**
 * n8n answers the activation first and serves the webhook right after: an unsigned probe gets 401
 * from every webhook process once it does.
 */
export async function untilServed(webhookBaseUrls: readonly string[], webhookId: string) {
	for (const base of webhookBaseUrls) {
		await waitFor('the webhook to be served', async () => {
			const probe = await fetch(`${base}/webhook/${webhookId}/webhook`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: '{}',
			});
			return probe.status === 401 ? true : undefined;
		});
	}
}
