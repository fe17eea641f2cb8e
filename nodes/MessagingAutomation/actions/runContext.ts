import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { MessagingClient } from '../../shared/client/client';
import { DEFAULT_BUDGETS, type PacerBudgets } from '../../shared/client/pacer';
import type { ToolListing } from '../../shared/client/toolListing';
import { createNodeClient } from '../../shared/transport/nodeClient';
import { findLiveTool } from '../toolList/liveTools';
import { WindowChecks } from './businessWindow/windowChecks';
import { DailyLimitGate } from './tool/dailyLimit';
import { IdempotencyKeys } from './tool/idempotencyKeys';

/** What one execution of the node shares across its items. */
export interface RunContext {
	client: MessagingClient;
	keys: IdempotencyKeys;
	dailyLimit: DailyLimitGate;
	/** The Business 24-hour window of each recipient, read at most once per run. */
	window: WindowChecks;
	timeoutMs: number;
	/** Live entry of a tool (schema, access), fetched at most once per tool and run. */
	liveTool(name: string): Promise<ToolListing | undefined>;
}

interface BudgetOption {
	budget?: { read?: number; write?: number; qrSend?: number; windowSeconds?: number };
}

function budgets(option: BudgetOption | undefined): PacerBudgets {
	const chosen = option?.budget ?? {};
	return {
		read: chosen.read ?? DEFAULT_BUDGETS.read,
		write: chosen.write ?? DEFAULT_BUDGETS.write,
		qrSend: chosen.qrSend ?? DEFAULT_BUDGETS.qrSend,
		windowMs:
			chosen.windowSeconds === undefined ? DEFAULT_BUDGETS.windowMs : chosen.windowSeconds * 1000,
	};
}

/** When the node runs as an AI Agent tool, n8n gives it a `…Tool` node type. */
export function runsAsAgentTool(context: IExecuteFunctions): boolean {
	return context.getNode().type.endsWith('Tool');
}

export async function createRunContext(this: IExecuteFunctions): Promise<RunContext> {
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const timeoutMs = ((options.timeoutSeconds as number | undefined) ?? 30) * 1000;
	const client = await createNodeClient(this, {
		budgets: budgets(options.rateLimitBudget as BudgetOption | undefined),
		timeoutMs,
		retry: { maxRetryAfterMs: ((options.rateLimitWaitSeconds as number | undefined) ?? 60) * 1000 },
	});
	const node = this.getNode();
	const lookups = new Map<string, Promise<ToolListing | undefined>>();
	return {
		client,
		timeoutMs,
		keys: new IdempotencyKeys(node.id ?? node.name),
		dailyLimit: new DailyLimitGate(runsAsAgentTool(this)),
		window: new WindowChecks(client),
		liveTool: async (name) => {
			let lookup = lookups.get(name);
			if (!lookup) {
				lookup = findLiveTool(this, client, name);
				lookups.set(name, lookup);
			}
			return await lookup;
		},
	};
}
