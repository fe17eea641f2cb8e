import type { IHttpRequestOptions } from 'n8n-workflow';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MessagingAutomationApi } from '../../credentials/MessagingAutomationApi.credentials';
import { errorFromResponse } from '../../nodes/shared/client/answer';
import { startSandbox, type SandboxHandle } from '../sandbox';

const credential = new MessagingAutomationApi();
let sandbox: SandboxHandle;

beforeAll(async () => {
	sandbox = await startSandbox();
});
afterAll(async () => sandbox.stop());

/** Sends GET /api/v1/me the way n8n would: the credential's authenticate() decides the headers. */
async function getMe(data: Record<string, unknown>) {
	const options = await credential.authenticate({ baseUrl: sandbox.url, ...data }, {
		url: '/api/v1/me',
		method: 'GET',
		headers: { accept: 'application/json' },
	} as IHttpRequestOptions);
	const response = await request(`${sandbox.url}/api/v1/me`, {
		headers: options.headers as Record<string, string>,
	});
	return { status: response.statusCode, body: (await response.body.json()) as Record<string, any> };
}

describe('MessagingAutomationApi credential', () => {
	it('sends the key as a Bearer token by default', async () => {
		const { status, body } = await getMe({ apiKey: sandbox.keys.owner, authScheme: 'bearer' });
		expect(status).toBe(200);
		expect(body.account).toBeDefined();
	});

	it('sends the key alone in the custom header when chosen', async () => {
		const { status } = await getMe({
			apiKey: sandbox.keys.member,
			authScheme: 'header',
			headerName: 'X-API-Key',
		});
		expect(status).toBe(200);
	});

	it('is refused with invalid_api_key when the header name is not the one the service reads', async () => {
		const { status, body } = await getMe({
			apiKey: sandbox.keys.owner,
			authScheme: 'header',
			headerName: 'X-Token',
		});
		expect(status).toBe(401);
		expect(body.error.code).toBe('invalid_api_key');
	});

	it('keeps the headers it was given', async () => {
		const options = await credential.authenticate({ apiKey: 'k', authScheme: 'bearer' }, {
			url: '/x',
			headers: { 'Idempotency-Key': 'abcdefgh' },
		} as IHttpRequestOptions);
		expect(options.headers).toEqual({ 'Idempotency-Key': 'abcdefgh', Authorization: 'Bearer k' });
	});

	it.each([
		['revoked', 401],
		['lowPlan', 403],
	] as const)(
		'the %s key gets %i, which the credential test explains',
		async (persona, statusCode) => {
			const { status } = await getMe({ apiKey: sandbox.keys[persona], authScheme: 'bearer' });
			expect(status).toBe(statusCode);
			const rule = credential.test.rules?.find(
				(candidate) =>
					candidate.type === 'responseCode' && candidate.properties.value === statusCode,
			);
			expect(rule?.properties.message).toBeTruthy();
		},
	);

	it('never follows a redirect in the credential test: the key stays with the Base URL', () => {
		expect(credential.test.request).toMatchObject({
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
		});
	});

	it('says what the nodes say for the same answer, word for word, once', () => {
		const rule = (status: number) =>
			credential.test.rules?.find(
				(candidate) => candidate.type === 'responseCode' && candidate.properties.value === status,
			)?.properties.message;
		const answer = (status: number, body: unknown) =>
			errorFromResponse({ status, headers: {}, body }).message;
		const revoked = {
			error: { code: 'invalid_api_key', message: 'The API key is invalid or revoked.' },
		};
		expect(rule(401)).toBe(answer(401, revoked));
		expect(rule(401)).not.toContain('invalid or revoked.');
		const lowPlan = { error: { code: 'plan_required', message: 'Upgrade to use the API.' } };
		expect(rule(403)).toMatch(new RegExp(`^${answer(403, lowPlan).replace(/[.()]/g, '\\$&')} `));
		expect(rule(404)).toBe(answer(404, '<html>Not Found</html>'));
	});
});
