import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { authenticate, requireScope, type Caller } from './auth';
import { dispatchTool, type DispatchDeps } from './dispatch';
import { headerValue, jsonObjectBody, readBody, sendError, sendJson, type RawBody } from './http';
import { SCOPES } from './model';
import { fingerprint, resolveIdempotencyKey } from './idempotency';
import { SandboxApiError } from './sandboxError';
import { toolListing } from './registry';
import { serveAttachment } from './tools/attachments';
import type { HandleRequest, HandleResponse } from './webhooks/types';

export interface ServerDeps extends DispatchDeps {
	webhooks: { handle(request: HandleRequest): Promise<HandleResponse> };
	/** Handles `/__sandbox/...`; the path is given without that prefix. */
	control(
		method: string,
		path: string,
		body: Record<string, unknown> | undefined,
	): Promise<{ status: number; body: unknown }>;
}

const TOOL_PATH = /^\/api\/v1\/tools\/([^/]+)$/;
const WEBHOOKS_PATH = /^\/api\/v1\/webhooks(\/.*)?$/;
const FILE_PATH = /^\/files\/([^/]+)$/;

function me(caller: Caller) {
	const numbers = (['qr', 'business'] as const).map((channel) => ({
		channel,
		phone: caller.account.channels[channel].phone,
		connected: caller.account.channels[channel].connected,
	}));
	return {
		account: { id: caller.account.id, name: caller.account.name, plan: caller.account.plan },
		key: { name: caller.key.name, scopes: [...caller.key.scopes], owner: caller.key.owner },
		numbers,
		ready: numbers.some((n) => n.connected),
	};
}

async function webhooks(
	deps: ServerDeps,
	req: IncomingMessage,
	raw: RawBody,
	subpath: string,
): Promise<HandleResponse> {
	const caller = authenticate(deps.state, req.headers);
	requireScope(caller, SCOPES.webhooks);
	const method = req.method ?? 'GET';
	// Management calls share the per-key windows: reads for GET, writes for everything else.
	deps.limits.takeCall(caller.key.id, method === 'GET' ? 'read' : 'write');
	const body = method === 'GET' || method === 'DELETE' ? undefined : jsonObjectBody(req, raw, true);
	const call = () => deps.webhooks.handle({ method, subpath, body, accountId: caller.account.id });
	if (method === 'GET') return call();
	// The general rule covers every write: a management call retried with its key (say, after a
	// time-out) must not register a second endpoint.
	const key = resolveIdempotencyKey({}, headerValue(req, 'idempotency-key'), false);
	if (!key) return call();
	const print = fingerprint(`webhooks ${method} ${subpath}`, body ?? {});
	const stored = deps.idempotency.lookup(caller.account.id, key, print);
	if (stored) return { status: stored.status, body: stored.body };
	const answer = await call();
	if (answer.status < 300)
		deps.idempotency.save(caller.account.id, key, {
			fingerprint: print,
			tool: `webhooks ${method}`,
			...answer,
		});
	return answer;
}

function hold(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

async function route(
	deps: ServerDeps,
	req: IncomingMessage,
	res: ServerResponse,
	raw: RawBody,
	requestId: string,
): Promise<void> {
	const url = new URL(req.url ?? '/', 'http://sandbox.local');
	const path = url.pathname;
	const method = req.method ?? 'GET';
	// The service's clock, as an HTTP server says it (whole seconds): the sandbox's own, which tests move.
	const headers = {
		'X-Request-Id': requestId,
		Date: new Date(deps.state.clock.now()).toUTCString(),
	};
	if (path.startsWith('/__sandbox/')) {
		const body =
			method === 'GET' || method === 'DELETE' ? undefined : jsonObjectBody(req, raw, true);
		const answer = await deps.control(method, path.slice('/__sandbox'.length), body);
		return sendJson(res, answer.status, answer.body, headers, true);
	}
	const file = FILE_PATH.exec(path);
	if (file && method === 'GET')
		return serveAttachment(deps.state, decodeURIComponent(file[1]), res, headers);
	if (method === 'GET' && path === '/api/v1/me')
		return sendJson(res, 200, me(authenticate(deps.state, req.headers)), headers);
	if (method === 'GET' && path === '/api/v1/tools') {
		return sendJson(
			res,
			200,
			{ tools: toolListing(authenticate(deps.state, req.headers)) },
			headers,
		);
	}
	const hook = WEBHOOKS_PATH.exec(path);
	if (hook) {
		const answer = await webhooks(deps, req, raw, hook[1] ?? '');
		return sendJson(res, answer.status, answer.body, headers);
	}
	const tool = TOOL_PATH.exec(path);
	if (tool && method === 'POST') {
		const caller = authenticate(deps.state, req.headers);
		const outcome = dispatchTool(deps, {
			caller,
			tool: decodeURIComponent(tool[1]),
			body: () => jsonObjectBody(req, raw) ?? {},
			headerKey: headerValue(req, 'idempotency-key'),
		});
		if (outcome.delayMs > 0) await hold(outcome.delayMs);
		// The effect is committed; losing the answer is the fault under test.
		if (outcome.drop) return void req.socket.destroy();
		return sendJson(res, outcome.status, outcome.body, { ...headers, ...outcome.headers });
	}
	throw new SandboxApiError(tool ? 405 : 404, 'not_found', `No route for ${method} ${path}.`);
}

export function createSandboxServer(deps: ServerDeps): Server {
	return createServer((req, res) => {
		const requestId = deps.state.ids.prefixed('req_', 12);
		readBody(req)
			.then((raw) => route(deps, req, res, raw, requestId))
			.catch((error: unknown) => {
				if (res.headersSent || res.destroyed) return;
				res.setHeader('X-Request-Id', requestId);
				if (error instanceof SandboxApiError) return sendError(res, error);
				sendError(
					res,
					new SandboxApiError(500, 'internal_error', `Sandbox failure: ${String(error)}`),
				);
			});
	});
}
