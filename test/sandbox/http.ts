import type { IncomingMessage, ServerResponse } from 'node:http';
import { SandboxApiError } from './sandboxError';

/*
 * Largest body the sandbox reads. The biggest legitimate inputs are a 1,000,000-character form
 * definition string and a 500,000-character CSV; 2 MiB leaves room for JSON escaping.
 */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

export interface RawBody {
	bytes: Buffer;
	/** More than MAX_BODY_BYTES arrived; the rest was drained, not kept. */
	tooLarge: boolean;
}

/** Reads the whole request (draining oversized ones so the client can read the 413). */
export function readBody(req: IncomingMessage): Promise<RawBody> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let tooLarge = Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) tooLarge = true;
			if (!tooLarge) chunks.push(chunk);
		});
		req.on('end', () => resolve({ bytes: Buffer.concat(chunks), tooLarge }));
		req.on('error', reject);
	});
}

function isJsonContentType(value: string | undefined): boolean {
	if (!value) return false;
	const type = value.split(';')[0].trim().toLowerCase();
	return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/**
 * The body as a JSON object, or the spec's errors: 415 wrong content type, 413 too large,
 * 400 unparsable or not an object. `optional` lets body-less management calls through.
 */
export function jsonObjectBody(
	req: IncomingMessage,
	raw: RawBody,
	optional = false,
): Record<string, unknown> | undefined {
	if (optional && raw.bytes.length === 0 && !raw.tooLarge) return undefined;
	if (!isJsonContentType(req.headers['content-type'])) {
		throw new SandboxApiError(
			415,
			'invalid_input',
			'Send the body as JSON with "Content-Type: application/json".',
		);
	}
	if (raw.tooLarge) {
		throw new SandboxApiError(
			413,
			'invalid_input',
			`The request body exceeds ${MAX_BODY_BYTES} bytes.`,
		);
	}
	let parsed: unknown;
	try {
		parsed = JSON.parse(raw.bytes.toString('utf8'));
	} catch (error) {
		throw new SandboxApiError(
			400,
			'invalid_input',
			`The body is not valid JSON: ${(error as Error).message}`,
			{ field: 'body' },
		);
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		throw new SandboxApiError(
			400,
			'invalid_input',
			'The body must be a JSON object ({} when a tool takes no input).',
			{
				field: 'body',
			},
		);
	}
	return parsed as Record<string, unknown>;
}

/**
 * `forPeople`: the control API, which people read with curl (the README's try-it steps), gets indented
 * JSON ending with a newline; the service's own API answers compact JSON, as the service does.
 */
export function sendJson(
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
	forPeople = false,
): void {
	const text = forPeople ? `${JSON.stringify(body, null, 2)}\n` : JSON.stringify(body);
	res.writeHead(status, {
		...headers,
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': String(Buffer.byteLength(text)),
	});
	res.end(text);
}

export function sendError(res: ServerResponse, error: SandboxApiError): void {
	sendJson(res, error.status, error.toBody(), error.headers);
}

export function headerValue(req: IncomingMessage, name: string): string | undefined {
	const value = req.headers[name];
	return Array.isArray(value) ? value[0] : value;
}
