import {
	NodeOperationError,
	type ILoadOptionsFunctions,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { findTool } from '../../shared/catalogue';
import { humanize } from '../helpers/naming';
import { createNodeClient, EDITOR_LOOKUP } from '../../shared/transport/nodeClient';
import { liveTools } from '../toolList/liveTools';

/**
 * Other › Call Another Tool: the tools GET /api/v1/tools lists for this key that have no
 * operation of their own. Only this list needs the service; every operation list is static.
 */
export async function getOtherTools(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	let tools;
	try {
		tools = await liveTools(this, await createNodeClient(this, EDITOR_LOOKUP));
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		throw new NodeOperationError(
			this.getNode(),
			`Could not load the tools of this API key: ${reason}`,
			{
				description: 'Check the credential, or enter the tool name as an expression.',
			},
		);
	}
	return tools
		.filter((tool) => findTool(tool.name) === undefined)
		.map((tool) => ({ name: humanize(tool.name), value: tool.name, description: tool.description }))
		.sort((a, b) => a.name.localeCompare(b.name));
}
