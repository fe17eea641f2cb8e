import { describe, expect, it } from 'vitest';

import {
	isOwnResumeLink,
	LINK_MARK,
	questionLink,
	withoutLiveLinks,
} from '../../../../nodes/shared/conversation/questionLinks';
import { timelineOf } from '../../../../nodes/shared/conversation/timeline';

const BASE = 'https://n8n.example.com/webhook-waiting';
const SIGNED = `signature=${'a'.repeat(64)}`;

describe('isOwnResumeLink: only links this n8n builds are followed', () => {
	it.each([
		[`${BASE}/41/node-1?q=k&chat=1&approved=true&${SIGNED}`, true],
		[`${BASE}/41?chat=1&${SIGNED}`, true],
		[`${BASE}/41/3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b?chat=1&${SIGNED}`, true],
		// another host, or this host on another port or scheme
		[`https://evil.example/webhook-waiting/41/node-1?chat=1&${SIGNED}`, false],
		[`http://169.254.169.254/webhook-waiting/41/node-1?chat=1&${SIGNED}`, false],
		[`https://n8n.example.com:8443/webhook-waiting/41/node-1?chat=1&${SIGNED}`, false],
		[`http://n8n.example.com/webhook-waiting/41/node-1?chat=1&${SIGNED}`, false],
		[`https://n8n.example.com.evil.example/webhook-waiting/41/node-1?chat=1&${SIGNED}`, false],
		[`https://user:pw@n8n.example.com/webhook-waiting/41/node-1?chat=1&${SIGNED}`, false],
		// another path of this host
		[`https://n8n.example.com/webhook/41/node-1?chat=1&${SIGNED}`, false],
		[`https://n8n.example.com/webhook-waiting-x/41?chat=1&${SIGNED}`, false],
		[`https://n8n.example.com/rest/login?chat=1&${SIGNED}`, false],
		[`${BASE}/41/node-1/extra?chat=1&${SIGNED}`, false],
		[`${BASE}/../rest/41?chat=1&${SIGNED}`, false],
		[`${BASE}/41/%2e%2e?chat=1&${SIGNED}`, false],
		[`${BASE}/?chat=1&${SIGNED}`, false],
		// unsigned, or not a URL
		[`${BASE}/41/node-1?chat=1`, false],
		['not a link', false],
	])('%s → %s', (link, own) => {
		expect(isOwnResumeLink(link, BASE)).toBe(own);
	});

	it('follows the base path n8n is served under, and nothing without a base', () => {
		const base = 'https://example.com/automation/webhook-waiting';
		expect(isOwnResumeLink(`${base}/7/n?${SIGNED}`, base)).toBe(true);
		expect(isOwnResumeLink(`https://example.com/webhook-waiting/7/n?${SIGNED}`, base)).toBe(false);
		expect(isOwnResumeLink(`${BASE}/41?${SIGNED}`, '')).toBe(false);
	});
});

describe('questionLink: a question is the account message with a chat-marked signed link', () => {
	const message = (text: string, fromMe = true) =>
		timelineOf({
			messages: [{ id: 'm', from_me: fromMe, text, timestamp: '2026-11-27T10:00:00Z' }],
		})[0];

	it('finds the first chat-marked signed link, only in the account’s messages', () => {
		const link = `${BASE}/41/node-1?chat=1&${SIGNED}`;
		expect(questionLink(message(`Refund?\n\nApprove: ${link}`))).toBe(link);
		expect(questionLink(message(`Refund?\n\nApprove: ${link}`, false))).toBeUndefined();
		expect(questionLink(message(`See ${BASE}/41/node-1?${SIGNED}`))).toBeUndefined();
		expect(questionLink(message(`Ask ${BASE}/41/node-1?chat=1`))).toBeUndefined();
	});
});

describe('withoutLiveLinks: history and memory keep the words, not the signed links', () => {
	it('replaces each signed link with a short mark and keeps other links', () => {
		const text = `Refund 25 EUR?\n\nApprove: ${BASE}/41/n?approved=true&${SIGNED}\nDecline: ${BASE}/41/n?approved=false&${SIGNED}\nOrder: https://shop.example/o/1042`;
		expect(withoutLiveLinks(text)).toBe(
			`Refund 25 EUR?\n\nApprove: ${LINK_MARK}\nDecline: ${LINK_MARK}\nOrder: https://shop.example/o/1042`,
		);
	});
});
