import { sleep } from 'n8n-workflow';

/**
 * A signal that aborts `ms` after now: one deadline for a whole exchange, body included (n8n's
 * `timeout` only limits the wait between bytes). n8n-workflow's sleep is the only timer a node
 * may use; once the exchange is over, the late abort changes nothing.
 */
export function deadlineSignal(ms: number): AbortSignal {
	const deadline = new AbortController();
	void sleep(ms).then(() => deadline.abort());
	return deadline.signal;
}
