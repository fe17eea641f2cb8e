import type { N8nWorkflowInput } from '../support/n8nRestApi.mjs';

/*
 * The AI reply bot example is wired with the chat memory, which is built on n8n's AI node SDK: n8n
 * ships it from 2.x on. On n8n 1.x the example is derived from the same file rather than kept as a
 * second copy: the memory taken out, and as many of the trigger's history messages as the memory's
 * window held pasted into the Agent's prompt, the way a 1.x user wires it.
 */

/** What the prompt puts before the history and before the new message; the scripted model reads them. */
export const EARLIER = 'Earlier in this chat:\n';
export const NOW = '\n\nThe customer now writes:\n';
export const NOTHING_YET = '(nothing yet)';

type Links = Record<string, Array<Array<{ node: string }>>>;

/** `workflow` with its chat memory replaced by the trigger's `history_text` in the Agent's prompt. */
export function withHistoryInPrompt<T extends N8nWorkflowInput>(workflow: T): T {
	const connections = workflow.connections as Record<string, Links>;
	const memory = Object.keys(connections).find((from) => connections[from].ai_memory);
	if (memory === undefined) return workflow;
	const agent = connections[memory].ai_memory[0][0].node;
	const memoryNode = workflow.nodes.find((node) => node.name === memory);
	const { contextWindowLength } = memoryNode?.parameters as { contextWindowLength: number };
	const withParameters = (node: T['nodes'][number], parameters: Record<string, unknown>) => ({
		...node,
		parameters: { ...(node.parameters as Record<string, unknown>), ...parameters },
	});
	return {
		...workflow,
		nodes: workflow.nodes
			.filter((node) => node !== memoryNode)
			.map((node) => {
				if (node.name === agent)
					return withParameters(node, {
						text: `=${EARLIER}{{ $json.history_text || '${NOTHING_YET}' }}${NOW}{{ $json.text }}`,
					});
				if (node.type.endsWith('.messagingAutomationTrigger'))
					// n8n's memories count a window in interactions, two messages each.
					return withParameters(node, {
						includeHistory: true,
						historyMessages: contextWindowLength * 2,
					});
				return node;
			}),
		connections: Object.fromEntries(
			Object.entries(connections).filter(([from]) => from !== memory),
		),
	};
}
