import type { INode, IWorkflowMetadata } from 'n8n-workflow';

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
