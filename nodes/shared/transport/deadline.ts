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

/**
 * `work`'s outcome, or a rejection once `deadline` aborts, whichever comes first. Inside an
 * execution, n8n's request helper with authentication replaces the abortSignal it is given by the
 * execution's cancel signal, so the deadline cannot stop the exchange itself: the call gives up on
 * it instead, and the abandoned exchange ends when the server ends it.
 */
export async function beforeDeadline<T>(work: Promise<T>, deadline: AbortSignal): Promise<T> {
	return await new Promise<T>((resolve, reject) => {
		const giveUp = () => reject(new Error('The deadline passed before the exchange was over'));
		if (deadline.aborted) return giveUp();
		deadline.addEventListener('abort', giveUp, { once: true });
		void work.then(resolve, reject).finally(() => deadline.removeEventListener('abort', giveUp));
	});
}
