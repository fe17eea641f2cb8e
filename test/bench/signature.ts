import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

import { verifySignature } from '../../nodes/shared/webhooks/verifySignature';
import {
	calibrate,
	duration,
	interleavedRounds,
	median,
	nsPerOp,
	pairedRatio,
	ratio,
} from './stats';
import type { MeasuredRow } from './table';

/*
 * Row 1: the trigger's verifier against the least work any correct receiver must do (one
 * HMAC-SHA256 over id.timestamp.body and a constant-time compare, key decoded once) and against
 * the standardwebhooks library. Called exactly as the trigger calls it: raw header lines of a
 * real delivery, the secret as configured, the body as raw bytes.
 */

const TARGET = 1.2;
const ROUNDS = 31;
const SAMPLE_MS = 20;

interface Delivery {
	body: Buffer;
	secret: string;
	key: Buffer;
	id: string;
	timestamp: string;
	signature: string;
	rawHeaders: string[];
	headers: Record<string, string>;
}

/** A message.received envelope padded with text to exactly `size` bytes, signed as the service signs. */
function delivery(size: number): Delivery {
	const key = randomBytes(32);
	const secret = `whsec_${key.toString('base64')}`;
	const id = `msg_${randomBytes(12).toString('hex')}`;
	const timestamp = String(Math.floor(Date.now() / 1000));
	const envelope = (text: string) =>
		JSON.stringify({
			id: 'evt_bench',
			type: 'message.received',
			created_at: new Date().toISOString(),
			api_version: '2026-10-01',
			account_id: 'acc_bench',
			data: { text },
		});
	const body = Buffer.from(envelope('x'.repeat(size - envelope('').length)));
	const signature = `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64')}`;
	const headers = {
		host: '127.0.0.1:5678',
		'user-agent': 'bench',
		'content-type': 'application/json',
		'content-length': String(body.length),
		'webhook-id': id,
		'webhook-timestamp': timestamp,
		'webhook-signature': signature,
	};
	return {
		body,
		secret,
		key,
		id,
		timestamp,
		signature,
		headers,
		rawHeaders: Object.entries(headers).flat(),
	};
}

function contenders(d: Delivery): Record<'ours' | 'bare' | 'library', () => boolean> {
	const library = new Webhook(d.secret);
	const given = Buffer.from(d.signature.slice('v1,'.length), 'base64');
	return {
		ours: () =>
			verifySignature({ body: d.body, headers: d.rawHeaders, secret: d.secret, now: Date.now() })
				.ok,
		bare: () =>
			timingSafeEqual(
				createHmac('sha256', d.key).update(`${d.id}.${d.timestamp}.`).update(d.body).digest(),
				given,
			),
		library: () => {
			// The library throws on failure; jsonParse off so it does no more work than the others.
			library.verify(d.body, d.headers, { jsonParse: false });
			return true;
		},
	};
}

async function measure(size: number, label: string, id: string): Promise<MeasuredRow> {
	const d = delivery(size);
	const verify = contenders(d);
	for (const [name, check] of Object.entries(verify)) {
		// A contender that rejects the delivery would be measuring its failure path.
		if (!check()) throw new Error(`${name} rejected a valid ${label} delivery`);
	}
	const iterations = Object.fromEntries(
		Object.entries(verify).map(([name, op]) => [name, calibrate(op, SAMPLE_MS)]),
	);
	const ns = await interleavedRounds(
		{
			ours: () => nsPerOp(verify.ours, iterations.ours),
			bare: () => nsPerOp(verify.bare, iterations.bare),
			library: () => nsPerOp(verify.library, iterations.library),
		},
		ROUNDS,
	);
	const vsBare = pairedRatio(ns.ours, ns.bare);
	const perDelivery = (samples: number[]) => duration(median(samples) / 1e6);
	return {
		id,
		title: `Signature verification, ${label} body: CPU time per delivery vs bare node:crypto HMAC`,
		figure: `${ratio(vsBare)} (${perDelivery(ns.ours)})`,
		anchor: `bare HMAC ${perDelivery(ns.bare)}; standardwebhooks ${perDelivery(ns.library)} (${ratio(pairedRatio(ns.library, ns.bare))})`,
		target: `<= ${TARGET.toFixed(1)}x`,
		met: vsBare <= TARGET,
		notes: [
			`${label}: CPU time, median over ${ROUNDS} interleaved rounds (~${SAMPLE_MS} ms per contender each) of the per-round ratio.`,
		],
	};
}

export async function signatureRows(): Promise<MeasuredRow[]> {
	return [await measure(1024, '1 KB', '1a'), await measure(256 * 1024, '256 KB', '1b')];
}
