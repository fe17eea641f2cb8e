/**
 * n8n's own URL failing: a wrong WEBHOOK_URL, a proxy in front of nothing, a firewall, Docker
 * without hairpin. Every request an n8n process makes to its own waiting webhooks fails then (the
 * trigger's probes on delivery, the Catch-Up poll's asks, a run's answer offers), as they all go
 * to the address WEBHOOK_URL names; none reaches n8n, so none resumes a question. The kinds are
 * what the nodes meet: the connection refused at once, a 5xx from what answers in n8n's stead (its
 * proxy, with no body of the node's), and no answer until the request's own time-out. For a window
 * of the case, or (no window) for the whole of it: a restart with a bad WEBHOOK_URL, which n8n
 * does not check at its start (ownUrlCheck.ts checks a publication only).
 */
import fc from 'fast-check';

export type OwnUrlKind = 'refused' | '5xx' | 'timeout';

export interface OwnUrlFault {
	kind: OwnUrlKind;
	/** From this long after a message's first delivery attempt, for `forMs`; undefined: the whole case. */
	window?: { afterMessage: number; delayMs: number; forMs: number };
}

/** A window as long as this outlasts the Catch-Up poll's patience (10 minutes, probePatience.ts). */
const LONGEST_WINDOW_MS = 20 * 60_000;

/** A case's fault, or none (a sixth of cases: the family's control). */
export const ownUrlArb = (index: fc.Arbitrary<number>): fc.Arbitrary<OwnUrlFault | undefined> =>
	fc.option(
		fc.record({
			kind: fc.constantFrom<OwnUrlKind>('refused', '5xx', 'timeout'),
			window: fc.option(
				fc.record({
					afterMessage: index,
					delayMs: fc.integer({ min: -30_000, max: 120_000 }),
					forMs: fc.integer({ min: 1000, max: LONGEST_WINDOW_MS }),
				}),
				{ nil: undefined },
			),
		}),
		{ nil: undefined },
	);

/** When the fault holds, as case time: [from, to). */
export function ownUrlSpan(
	fault: OwnUrlFault | undefined,
	firstAttemptAt: (message: number) => number,
): { from: number; to: number } | undefined {
	if (!fault) return undefined;
	if (!fault.window) return { from: Number.NEGATIVE_INFINITY, to: Number.POSITIVE_INFINITY };
	const from = firstAttemptAt(fault.window.afterMessage) + fault.window.delayMs;
	return { from, to: from + fault.window.forMs };
}

export interface OwnUrlAnswer {
	statusCode: number;
	body: unknown;
}

/**
 * The failed request as `helpers.httpRequest` ends it: refused at once (axios's error carries the
 * code), a proxy's 502 (returned: the nodes ask with ignoreHttpStatusErrors), or a rejection when
 * the request's time-out passes (axios's ECONNABORTED; none: it never ends).
 */
export async function ownUrlFailure(
	kind: OwnUrlKind,
	timeoutMs: number | undefined,
): Promise<OwnUrlAnswer> {
	if (kind === '5xx') return { statusCode: 502, body: '<html>502 Bad Gateway</html>' };
	if (kind === 'refused')
		throw Object.assign(new Error('connect ECONNREFUSED 172.17.0.1:443'), {
			code: 'ECONNREFUSED',
		});
	return await new Promise<never>((_, reject) => {
		if (timeoutMs)
			setTimeout(
				() =>
					reject(
						Object.assign(new Error(`timeout of ${timeoutMs}ms exceeded`), {
							code: 'ECONNABORTED',
						}),
					),
				timeoutMs,
			);
	});
}

/** A request the fault failed: when, to which question's execution, by whom, and in which chat. */
export interface OwnUrlFailed {
	at: number;
	execution: string;
	/** The Catch-Up poll's (its asks and its runs' offers) or the trigger's (a delivery's, a run's). */
	by: 'trigger' | 'poll';
	/** A probe (no message named), not an offer. */
	probe: boolean;
	conversationId?: string;
}
