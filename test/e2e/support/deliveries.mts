import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

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

/** Posts `body` to `url` signed with `secret` as the service signs it (Standard Webhooks), now. */
export async function postSigned(url: string, secret: string, body: string): Promise<number> {
	const id = `msg_${randomUUID().replaceAll('-', '')}`;
	const now = new Date();
	const response = await fetch(url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'webhook-id': id,
			'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
			'webhook-signature': new Webhook(secret).sign(id, now, body),
		},
		body,
	});
	await response.arrayBuffer();
	return response.status;
}
