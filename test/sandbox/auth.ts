import type { IncomingHttpHeaders } from 'node:http';
import { API_PLAN, type AccountState, type ApiKey } from './model';
import { SandboxApiError } from './sandboxError';
import type { SandboxState } from './state';

/** The second auth scheme's header (the spec does not name it). */
export const API_KEY_HEADER = 'x-api-key';
export const UPGRADE_URL = 'https://messaging-automation.example/pricing';

export interface Caller {
	key: ApiKey;
	account: AccountState;
}

function presentedKey(headers: IncomingHttpHeaders): string | undefined {
	const authorization = headers.authorization;
	if (authorization !== undefined) {
		const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
		// A malformed Authorization header is not silently ignored in favour of X-API-Key.
		return match ? match[1] : '';
	}
	const header = headers[API_KEY_HEADER];
	return Array.isArray(header) ? header[0] : header;
}

/** Spec Authentication 2 and 4: 401 for missing, invalid or revoked keys; 403 for a plan without API access. */
export function authenticate(state: SandboxState, headers: IncomingHttpHeaders): Caller {
	const secret = presentedKey(headers);
	if (!secret) {
		throw new SandboxApiError(
			401,
			'invalid_api_key',
			'Missing API key: send "Authorization: Bearer <key>" or the "X-API-Key" header.',
		);
	}
	const key = state.keyBySecret(secret);
	if (!key || key.revoked)
		throw new SandboxApiError(401, 'invalid_api_key', 'The API key is invalid or revoked.');
	const account = state.account(key.accountId);
	if (account.plan !== API_PLAN) {
		throw new SandboxApiError(
			403,
			'plan_required',
			'API keys and webhooks are available only on the Scale plan. Upgrade to use the API.',
			{ upgrade_url: UPGRADE_URL },
		);
	}
	return { key, account };
}

export function requireScope(caller: Caller, scope: string): void {
	if (!caller.key.scopes.includes(scope)) {
		throw new SandboxApiError(
			403,
			'insufficient_permission',
			`This API key lacks the scope "${scope}". Create a key with that scope in Developers.`,
		);
	}
}
