import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { catalogue, findTool } from '../../shared/catalogue';
import { GET_ME_OPERATION } from '../actions/account/get';
import { resourceOfTool, type NodeResource } from '../actions/resources';
import { SPEC_ONLY_TOOLS } from '../actions/toolGroups';
import { humanize } from '../helpers/naming';
import { createClient, EDITOR_LOOKUP } from '../transport';
import { liveTools } from '../transport/liveTools';

interface ToolName {
	name: string;
	description?: string;
}

/** Without a credential or a connection the editor still offers every tool it knows of. */
const OFFLINE_TOOLS: ToolName[] = [...catalogue.map(({ name }) => ({ name })), ...SPEC_ONLY_TOOLS.map((name) => ({ name }))];

async function availableTools(context: ILoadOptionsFunctions): Promise<ToolName[]> {
	try {
		return await liveTools(context, await createClient(context, EDITOR_LOOKUP));
	} catch {
		return OFFLINE_TOOLS;
	}
}

function toOption(tool: ToolName): INodePropertyOptions {
	const known = findTool(tool.name);
	return {
		name: known?.displayName ?? humanize(tool.name),
		value: tool.name,
		description: known?.description ?? tool.description ?? `Calls the tool ${tool.name}`,
	};
}

/**
 * The operations of the chosen resource: the tools GET /api/v1/tools lists for this key, named and
 * described from the catalogue where the tool is known, placed by the catalogue or by their name.
 */
export async function getOperations(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const resource = this.getCurrentNodeParameter('resource') as NodeResource;
	const tools = await availableTools(this);
	const options = tools
		.filter((tool) => resourceOfTool(tool.name) === resource)
		.map(toOption)
		.sort((a, b) => a.name.localeCompare(b.name));
	if (resource === 'account') {
		options.unshift({
			name: 'Get',
			value: GET_ME_OPERATION,
			description: 'The account, its connected numbers, readiness, and the key name and scopes (GET /api/v1/me)',
		});
	}
	return options;
}
