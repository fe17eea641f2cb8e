import { request as httpRequest, type ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface PostOutcome {
	statusCode: number | null;
	/** Null only for a 2xx answer: that alone counts as delivered. */
	error: string | null;
	responseExcerpt: string | null;
}

const EXCERPT_BYTES = 1024;

/**
 * One delivery request. node:http never follows redirects, which is exactly the spec's rule:
 * a 3xx is reported as a failure. Each request uses its own connection (no agent) so that
 * stopping the sandbox leaves no pooled sockets behind.
 */
export class Poster {
	private readonly inFlight = new Set<ClientRequest>();

	constructor(private readonly timeoutMs: number) {}

	post(url: string, headers: Record<string, string>, body: Buffer): Promise<PostOutcome> {
		const target = new URL(url);
		const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
		return new Promise((resolve) => {
			let settled = false;
			const finish = (outcome: PostOutcome) => {
				if (settled) return;
				settled = true;
				clearTimeout(timer);
				this.inFlight.delete(req);
				resolve(outcome);
			};
			const fail = (error: string) => {
				finish({ statusCode: null, error, responseExcerpt: null });
				req.destroy();
			};
			const req = send(target, { method: 'POST', headers, agent: false }, (res) => {
				const chunks: Buffer[] = [];
				let kept = 0;
				res.on('data', (chunk: Buffer) => {
					if (kept < EXCERPT_BYTES) chunks.push(chunk.subarray(0, EXCERPT_BYTES - kept));
					kept += chunk.length;
				});
				res.on('end', () => {
					const statusCode = res.statusCode ?? 0;
					finish({
						statusCode,
						error: classify(statusCode),
						responseExcerpt: Buffer.concat(chunks).toString('utf8'),
					});
				});
				res.on('error', (error: NodeJS.ErrnoException) => fail(error.code ?? 'response_error'));
			});
			// The whole exchange, headers and body, must finish within the time-out.
			const timer = setTimeout(() => fail('timeout'), this.timeoutMs);
			this.inFlight.add(req);
			req.on('error', (error: NodeJS.ErrnoException) => fail(error.code ?? 'request_error'));
			req.end(body);
		});
	}

	/** Drops every open request; their outcomes are reported as `aborted`. */
	abortAll(): void {
		for (const req of this.inFlight)
			req.destroy(Object.assign(new Error('aborted'), { code: 'aborted' }));
	}
}

function classify(statusCode: number): string | null {
	if (statusCode >= 200 && statusCode < 300) return null;
	if (statusCode >= 300 && statusCode < 400) return 'redirect_not_followed';
	return `http_${statusCode}`;
}
