import type { IAllExecuteFunctions } from 'n8n-workflow';

import type { MessagingClient } from '../../shared/client/client';
import type { ToolListing } from '../../shared/client/toolListing';
import { credentialFingerprint } from '../../shared/transport/credential';

/*
 * GET /api/v1/tools, kept for a minute per service and key so the editor stays fast. The cache
 * only ever speeds things up: a tool missing from a cached list is looked up again, so a call is
 * refused only when a fresh list says no. It lives as long as the n8n process and a list with its
 * schemas weighs tens of kilobytes, so it holds the most recently used few dozen keys at most.
 */

const TTL_MS = 60_000;
export const MAX_CACHED_KEYS = 50;
const cache = new Map<string, { expires: number; tools: ToolListing[] }>();

/** Stores a list as the most recently used, dropping expired lists and then the least recently used. */
function remember(key: string, tools: ToolListing[], now: number): void {
	cache.delete(key);
	cache.set(key, { expires: now + TTL_MS, tools });
	for (const [stored, entry] of cache) {
		if (cache.size <= MAX_CACHED_KEYS && entry.expires > now) break;
		cache.delete(stored);
	}
}

export async function liveTools(
	context: IAllExecuteFunctions,
	client: MessagingClient,
	options: { fresh?: boolean } = {},
): Promise<ToolListing[]> {
	const key = await credentialFingerprint(context);
	const hit = cache.get(key);
	if (hit && !options.fresh && hit.expires > Date.now()) {
		// Most recently used goes last, so the bound drops the others first.
		cache.delete(key);
		cache.set(key, hit);
		return hit.tools;
	}
	const { data } = await client.listTools();
	remember(key, data, Date.now());
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
		return (
			cached.find((tool) => tool.name === name) ??
			(await liveTools(context, client, { fresh: true })).find((tool) => tool.name === name)
		);
	} catch {
		return undefined;
	}
}

/**
 * Whether the key's tool list names `name`, asked again when a cached list lacks it; undefined
 * when the list cannot be had, and then the service decides.
 */
export async function isListed(
	context: IAllExecuteFunctions,
	client: MessagingClient,
	name: string,
): Promise<boolean | undefined> {
	try {
		if ((await liveTools(context, client)).some((tool) => tool.name === name)) return true;
		return (await liveTools(context, client, { fresh: true })).some((tool) => tool.name === name);
	} catch {
		return undefined;
	}
}
