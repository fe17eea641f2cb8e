import type { IConnections, INode } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import { registerToolHandler } from '../../../sandbox/tools';
import { START_NODE_TYPE } from '../../../support/n8nEngine';
import { renderDescriptions } from '../../../support/descriptionSnapshot';
import { modelTool, toolNode } from '../../MessagingAutomation/agentTool';
import { AGENT_TOOL_TYPE, useHarness } from '../../MessagingAutomation/harness';
import { MODEL_CALL_TYPE } from '../../MessagingAutomation/modelCall';
import { LABEL_PAGE_MAX, LABELS, listLabelsHandler, listLabelsTool } from './fixtures/list_labels';

/*
 * Adding a tool is one catalogue file (its entry, listed in nodes/shared/catalogue/tools/index.ts)
 * plus its sandbox handler. Here the entry exists only in this test (fixtures/list_labels.ts), and
 * everything else must follow from it: the editor's action, the fields and the list behaviour it
 * declares, validation, the AI Agent's tool, and correct calls through n8n's engine.
 */

vi.mock('../../../../nodes/shared/catalogue/tools', async (importOriginal) => {
	const original = await importOriginal<typeof import('../../../../nodes/shared/catalogue/tools')>();
	const { listLabelsTool: fixture } = await vi.importActual<typeof import('./fixtures/list_labels')>('./fixtures/list_labels');
	return { toolEntries: [...original.toolEntries, fixture] };
});
registerToolHandler(listLabelsTool.name, listLabelsHandler);

const h = useHarness();
const LABELS_OPERATION = { resource: 'chat', operation: 'getLabels' };
const vip = LABELS.filter((label) => label.includes('vip'));

function section(text: string, heading: string): string {
	const start = text.indexOf(heading);
	return start < 0 ? '' : text.slice(start, text.indexOf('\n###', start + 1));
}

describe('a tool defined only in a catalogue fixture', () => {
	it('is an action of its resource in the editor, with the fields and list switches it declares', () => {
		const editor = section(renderDescriptions(), '### Chat › Get Many Labels (chat/getLabels)');
		expect(editor).toContain('Query (query): string, default "", required when inputMode = "fields", @tool = false');
		expect(editor).toContain('Return All (returnAll): boolean, default false');
		expect(editor).toContain('Limit (limit): number, default 50 when returnAll = false');
		expect(editor).toContain('Simplify (simplify): boolean, default true');
		// Paging is the node's: the cursor and page size are never fields of their own.
		expect(editor).not.toContain('(cursor)');
		expect(editor).not.toMatch(/Page Size/);
		expect(renderDescriptions()).toContain('- Get Many Labels = "getLabels" [action: Get many labels]');
	});

	it('follows the cursor for Return All, page by page, and simplifies the answers', async () => {
		const run = await h.run({ parameters: { ...LABELS_OPERATION, query: 'vip', returnAll: true } });
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual(vip.map((name) => ({ name, chat_count: name.length })));
		expect(run.calls.map((call) => [call.tool, call.status, call.input])).toEqual([
			['list_labels', 200, { query: 'vip', limit: 100 }],
			['list_labels', 200, { query: 'vip', limit: 100, cursor: String(LABEL_PAGE_MAX) }],
			['list_labels', 200, { query: 'vip', limit: 100, cursor: String(2 * LABEL_PAGE_MAX) }],
		]);
	});

	it('stops at Limit, asking each page for no more than is still missing', async () => {
		const run = await h.run({ parameters: { ...LABELS_OPERATION, query: 'vip', limit: 4, simplify: false } });
		expect(run.json.map((item) => item.name)).toEqual(vip.slice(0, 4));
		expect(run.json[0]).toHaveProperty('note', '');
		expect(run.calls.map((call) => call.input)).toEqual([
			{ query: 'vip', limit: 4 },
			{ query: 'vip', limit: 1, cursor: String(LABEL_PAGE_MAX) },
		]);
	});

	it('validates its input against the entry before anything is sent', async () => {
		const run = await h.run({ parameters: { ...LABELS_OPERATION, query: 'v'.repeat(51), returnAll: true } });
		expect(run.error?.message).toBe('Query must be 1-50 characters. Nothing was sent.');
		expect(run.calls).toEqual([]);
	});

	it('is offered to the AI Agent, and the call the model makes runs as declared', async () => {
		const offered = modelTool(toolNode(LABELS_OPERATION));
		expect(offered.description).toBe('Get many labels: labels of saved chats whose name contains a text.');
		expect(offered.parameters).toMatchObject({ properties: { Query: { type: 'string' } }, required: ['Query'] });

		const nodes: INode[] = [
			{ id: 'start', name: 'Start', type: START_NODE_TYPE, typeVersion: 1, position: [0, 0], parameters: {} },
			{ id: 'call', name: 'Call', type: MODEL_CALL_TYPE, typeVersion: 1, position: [200, 0], parameters: { item: JSON.stringify({ Query: 'whole', toolCallId: 'call_1' }) } },
			{
				id: 'tool',
				name: 'Tool',
				type: AGENT_TOOL_TYPE,
				typeVersion: 1,
				position: [400, 0],
				parameters: LABELS_OPERATION,
				credentials: { messagingAutomationApi: { id: 'cred-1', name: 'Sandbox' } },
			},
		];
		const connections: IConnections = {
			Start: { main: [[{ node: 'Call', type: 'main', index: 0 }]] },
			Call: { main: [[{ node: 'Tool', type: 'main', index: 0 }]] },
		};
		const before = h.sandbox.calls().length;
		const result = await h.engine.run({ nodes, connections }, { node: 'Start', items: [{ json: {} }] });
		expect(result.nodeError('Tool')).toBeUndefined();
		expect(result.output('Tool').map((item) => item.json)).toEqual([{ name: 'wholesale', chat_count: 9 }]);
		expect(h.sandbox.calls().slice(before).map((call) => [call.tool, call.input])).toEqual([['list_labels', { query: 'whole', limit: 50 }]]);
	});
});
