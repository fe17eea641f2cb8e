import { sleep, type IExecuteFunctions } from 'n8n-workflow';

/*
 * n8n cancelling the run while its first step offers (the workflow's Timeout Workflow,
 * EXECUTIONS_TIMEOUT, a person pressing Stop): n8n drops whatever the step passes on after that, so
 * the step stops offering and claims nothing more (answerPass.ts, runClaim.ts). n8n 1.123 and 2.x
 * give a run's step the execution's cancel signal; a context without one is never cancelled.
 */

type Cancellable = Partial<Pick<IExecuteFunctions, 'getExecutionCancelSignal'>>;

const signalOf = (context: IExecuteFunctions): AbortSignal | undefined =>
	(context as Cancellable).getExecutionCancelSignal?.();

/** Whether n8n cancelled the execution. */
export const cancelled = (context: IExecuteFunctions): boolean =>
	signalOf(context)?.aborted === true;

/** Waits `ms` (none when not positive), less when n8n cancels the execution meanwhile: false then. */
export async function paused(context: IExecuteFunctions, ms: number): Promise<boolean> {
	const signal = signalOf(context);
	if (signal?.aborted) return false;
	if (ms <= 0) return true;
	if (!signal) {
		await sleep(ms);
		return true;
	}
	let stop = () => {};
	const aborted = new Promise<void>((resolve) => {
		stop = resolve;
		signal.addEventListener('abort', stop, { once: true });
	});
	await Promise.race([sleep(ms), aborted]);
	signal.removeEventListener('abort', stop);
	return !signal.aborted;
}
