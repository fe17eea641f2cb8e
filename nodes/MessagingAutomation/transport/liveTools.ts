import type { IAllExecuteFunctions } from 'n8n-workflow';

import type { MessagingClient } from '../../shared/client/client';
import type { ToolListing } from '../../shared/client/toolListing';
import { credentialFingerprint } from './index';

/*
 * GET /api/v1/tools, kept for a minute per service and key so the editor stays fast. The cache
 * only ever speeds things up: a tool missing from a cached list is looked up again, and a call is
 * never refused because a list said no.
 */

const TTL_MS = 60_000;
const cache = new Map<string, { expires: number; tools: ToolListing[] }>();

export async function liveTools(
	context: IAllExecuteFunctions,
	client: MessagingClient,
	options: { fresh?: boolean } = {},
): Promise<ToolListing[]> {
	const key = await credentialFingerprint(context);
	const hit = cache.get(key);
	if (hit && !options.fresh && hit.expires > Date.now()) return hit.tools;
	const { data } = await client.listTools();
	cache.set(key, { expires: Date.now() + TTL_MS, tools: data });
	return data;
}

/**
 * The live entry of one tool, looked up again when a cached list lacks it. Undefined when the
 * service does not list it or cannot be asked; the call then goes ahead and the service decides.
 */
export async function findLiveTool(
	context: IAllExecuteFunctions,
	client: MessagingClient,
	name: string,
): Promise<ToolListing | undefined> {
	try {
		const cached = await liveTools(context, client);
		return cached.find((tool) => tool.name === name) ?? (await liveTools(context, client, { fresh: true })).find((tool) => tool.name === name);
	} catch {
		return undefined;
	}
}
