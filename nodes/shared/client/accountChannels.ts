import { isRecord } from '../guards';
import type { Channel } from '../webhooks/events';

/**
 * Whether a listed number says it is connected: by a `connected` flag, or by a `status` or `state`
 * in the spec's own words for a channel (`connected`, `disconnected`). One that says nothing of it
 * counts as connected.
 */
function isConnected(entry: Record<string, unknown>): boolean {
	if (typeof entry.connected === 'boolean') return entry.connected;
	const state = typeof entry.status === 'string' ? entry.status : entry.state;
	return typeof state === 'string' ? state.toLowerCase() === 'connected' : true;
}

/**
 * The channels GET /api/v1/me reports connected. Its field names are not shown by the spec
 * (docs/assumptions.md): the node reads `numbers: [{ channel, phone, connected }]`, or the same
 * list under `channels`, with the connection said by `connected`, `status` or `state`.
 * Undefined when the answer holds no such list, so a caller can leave the choice to the service.
 */
export function connectedChannels(me: unknown): Channel[] | undefined {
	if (!isRecord(me)) return undefined;
	const list = Array.isArray(me.numbers) ? me.numbers : me.channels;
	if (!Array.isArray(list)) return undefined;
	const connected = new Set<Channel>();
	for (const entry of list) {
		if (!isRecord(entry) || !isConnected(entry)) continue;
		if (entry.channel === 'qr' || entry.channel === 'business') connected.add(entry.channel);
	}
	return [...connected];
}
