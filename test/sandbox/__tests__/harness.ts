import { afterAll, beforeAll, beforeEach } from 'vitest';
import { Agent, request } from 'undici';
import { SandboxClock } from '../clock';
import { startSandbox, type Persona, type SandboxHandle } from '../index';

/** Fixed start so day boundaries and the 2026-10-01 billing rules are predictable. */
export const START = Date.parse('2026-11-20T10:00:00.000Z');

export interface Reply {
	status: number;
	headers: Record<string, string>;
	body: any;
}

export interface CallOptions {
	/** Persona whose key is used (default owner). */
	as?: Persona;
	key?: string;
	idempotencyKey?: string;
	headers?: Record<string, string>;
}

const agent = new Agent({ keepAliveTimeout: 1000, connections: 32 });

/** One HTTP request over undici; the body is sent as-is when it is a string. */
export async function raw(
	url: string,
	method: string,
	path: string,
	options: { headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number } = {},
): Promise<Reply> {
	const response = await request(`${url}${path}`, {
		method: method as 'GET',
		headers: options.headers,
		body: options.body,
		dispatcher: agent,
		signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
	});
	const text = await response.body.text();
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(response.headers))
		headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
	let body: unknown = text;
	try {
		body = text ? JSON.parse(text) : undefined;
	} catch {
		// Not JSON (file downloads): keep the text.
	}
	return { status: response.statusCode, headers, body };
}

export interface Api {
	sandbox: SandboxHandle;
	call(tool: string, body?: unknown, options?: CallOptions): Promise<Reply>;
	get(path: string, options?: CallOptions): Promise<Reply>;
	control(method: string, path: string, body?: unknown): Promise<Reply>;
}

let counter = 0;
/** A fresh, valid idempotency key. */
export function newKey(label = 'k'): string {
	counter += 1;
	return `${label}-test-${counter}`.padEnd(8, '0');
}

function auth(sandbox: SandboxHandle, options: CallOptions): Record<string, string> {
	return { authorization: `Bearer ${options.key ?? sandbox.keys[options.as ?? 'owner']}` };
}

export function apiFor(sandbox: SandboxHandle): Api {
	return {
		sandbox,
		call(tool, body = {}, options = {}) {
			const headers: Record<string, string> = {
				'content-type': 'application/json',
				...auth(sandbox, options),
				...options.headers,
			};
			if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
			return raw(sandbox.url, 'POST', `/api/v1/tools/${tool}`, {
				headers,
				body: JSON.stringify(body),
			});
		},
		get(path, options = {}) {
			return raw(sandbox.url, 'GET', path, {
				headers: { ...auth(sandbox, options), ...options.headers },
			});
		},
		control(method, path, body) {
			const headers: Record<string, string> =
				body === undefined ? {} : { 'content-type': 'application/json' };
			return raw(sandbox.url, method, `/__sandbox${path}`, {
				headers,
				body: body === undefined ? undefined : JSON.stringify(body),
			});
		},
	};
}

/**
 * A sandbox per test file on a frozen clock (speed 0): time moves only when a test moves it.
 * State is reset before each test; the returned object is filled in beforeAll.
 */
export function useSandbox(): Api {
	const api = {} as Api;
	beforeAll(async () => {
		const sandbox = await startSandbox({
			clock: new SandboxClock({ start: START, speed: 0 }),
			seed: 7,
		});
		Object.assign(api, apiFor(sandbox));
	});
	beforeEach(() => {
		api.sandbox.clock.set(START);
		api.sandbox.reset();
	});
	afterAll(async () => {
		await api.sandbox?.stop();
	});
	return api;
}

/** Writes a call with a fresh idempotency key. */
export function write(
	api: Api,
	tool: string,
	body: Record<string, unknown>,
	options: CallOptions = {},
): Promise<Reply> {
	return api.call(tool, body, { idempotencyKey: newKey(tool), ...options });
}
