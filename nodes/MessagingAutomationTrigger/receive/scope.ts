import type { INode, IWebhookFunctions, IWorkflowMetadata } from 'n8n-workflow';

/**
 * One trigger node at one webhook URL: what dedupe claims and held deliveries are kept under.
 * Test and production never share one (their URLs differ), nor do two workflows. The webhook
 * handler and the activation hooks name the URL alike (n8n builds both from the same parts).
 */
export function triggerScope(
	context: { getWorkflow(): IWorkflowMetadata; getNode(): INode },
	url: string,
): string {
	const node = context.getNode();
	return `${context.getWorkflow().id ?? ''}:${node.id ?? node.name}:${url}`;
}

/**
 * This delivery's trigger scope, named by the URL as the activation hooks name it. n8n 1.x has no
 * resource URL: its production deliveries (mode `webhook`) take the node's production URL, so a
 * deactivation or a save releases what they hold; its test deliveries fall back to the mode.
 */
export function deliveryScope(context: IWebhookFunctions): string {
	const url =
		typeof context.getWebhookResourceUrl === 'function'
			? context.getWebhookResourceUrl('default')
			: context.getMode() === 'webhook'
				? context.getNodeWebhookUrl('default')
				: context.getMode();
	return triggerScope(context, url ?? '');
}
