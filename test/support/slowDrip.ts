import type { ServerResponse } from 'node:http';

/**
 * Answers with `status` and `headers` at once, then writes `body` one byte every `everyMs` until it
 * is all out or the client has gone: a server (or proxy) that trickles, each byte well inside any
 * idle time-out.
 */
export function slowDrip(
	res: ServerResponse,
	status: number,
	headers: Record<string, string>,
	body: Buffer,
	everyMs: number,
): void {
	res.writeHead(status, { ...headers, 'content-length': String(body.length) });
	let sent = 0;
	const tick = setInterval(() => {
		if (res.destroyed || sent >= body.length) {
			clearInterval(tick);
			if (!res.destroyed) res.end();
			return;
		}
		res.write(body.subarray(sent, ++sent));
	}, everyMs);
}
