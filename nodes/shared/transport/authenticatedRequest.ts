import type { IAllExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from './credential';
import type { Deadline } from './deadline';

type CancellableContext = IAllExecuteFunctions & {
	getExecutionCancelSignal?: () => AbortSignal | undefined;
};

/**
 * One exchange's deadline joined with the execution's cancellation (when the context has one).
 * `done` once the exchange is over, body read: until then either can stop it.
 */
export function exchangeDeadline(context: IAllExecuteFunctions, deadline: Deadline): Deadline {
	const cancel = (context as CancellableContext).getExecutionCancelSignal?.();
	if (!cancel) return deadline;
	const either = new AbortController();
	const abort = () => either.abort();
	if (deadline.signal.aborted || cancel.aborted) abort();
	deadline.signal.addEventListener('abort', abort, { once: true });
	cancel.addEventListener('abort', abort, { once: true });
	return {
		signal: either.signal,
		done: () => {
			deadline.signal.removeEventListener('abort', abort);
			cancel.removeEventListener('abort', abort);
			deadline.done();
		},
	};
}

/**
 * `httpRequestWithAuthentication` that keeps `signal`. n8n's helper replaces a request's
 * `abortSignal` with the execution's cancel signal whenever the context has one (every action
 * node run, n8n 1.123 and 2.x), which would drop the deadline; it reads that signal from `this`,
 * so it is called on a view of the context whose cancel signal is `signal`, which
 * exchangeDeadline makes abort on either.
 */
export async function requestWithCredential<T>(
	context: IAllExecuteFunctions,
	options: IHttpRequestOptions,
	signal: AbortSignal,
): Promise<T> {
	const view = Object.create(context, {
		getExecutionCancelSignal: { value: () => signal },
	}) as IAllExecuteFunctions;
	return (await context.helpers.httpRequestWithAuthentication.call(view, CREDENTIAL_TYPE, {
		...options,
		abortSignal: signal,
	})) as T;
}
