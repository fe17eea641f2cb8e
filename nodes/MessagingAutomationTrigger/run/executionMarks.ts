import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

/** The execution's custom data (Executions list); n8n 1.123's run contexts have none, and go without. */
export function markExecution(context: IExecuteFunctions, key: string, value: string): void {
	(context as Partial<Pick<IExecuteFunctions, 'customData'>>).customData?.set(key, value);
}

/**
 * A run that ends at the trigger's step says why in the Executions list, so the person looking at
 * an execution with no item (a delivered run's, or the Retry they clicked) need not read n8n's log.
 */
export function markEndedHere(
	context: IExecuteFunctions,
	passed: readonly INodeExecutionData[][],
	answered: number,
	otherwise: string,
): void {
	if (passed.some((list) => list.length > 0)) return;
	markExecution(
		context,
		'messaging_automation',
		answered > 0 ? 'answered a Send and Wait question' : otherwise,
	);
}
