import type { IExecuteFunctions } from 'n8n-workflow';

import { findTool } from '../../../shared/catalogue';
import { InsufficientPermissionError, UnknownToolError } from '../../../shared/client/errors';
import { isListed } from '../../toolList/liveTools';
import type { RunContext } from '../runContext';

/*
 * "A tool absent from GET /api/v1/tools is unavailable to the key" (spec): such a call is refused
 * here, before any request, saying what the key lacks. When the list cannot be had, nothing is
 * refused: the service decides.
 */

export async function assertToolAvailable(
	context: IExecuteFunctions,
	run: RunContext,
	name: string,
): Promise<void> {
	if ((await isListed(context, run.client, name)) !== false) return;
	const tool = findTool(name);
	if (!tool) {
		throw new UnknownToolError(
			`The service does not list the tool "${name}" for this API key. Check the name under Tool Name or ID, or give the key the scope the tool needs. Nothing was sent.`,
			{ code: 'unknown_tool' },
		);
	}
	const needs = [
		`the scope "${tool.scope}"`,
		...(tool.ownerOnly ? ["the account owner's key"] : []),
	].join(' and ');
	throw new InsufficientPermissionError(
		`This API key may not use "${tool.operation.action}": the service does not list it for the key. It needs ${needs}; actions that read saved chats also need inbox storage consent. Change the key in the dashboard, or use another key. Nothing was sent.`,
		{ code: 'insufficient_permission', scope: tool.scope },
	);
}
