import { isRecord } from '../guards';
import type { Channel } from '../webhooks/events';

/**
 * The channels GET /api/v1/me reports connected. Its field names are not shown by the spec
 * (docs/assumptions.md): the node reads `numbers: [{ channel, phone, connected }]`, or the same
 * list under `channels`, and counts a listed number as connected unless it says `connected: false`.
 * Undefined when the answer holds no such list, so a caller can leave the choice to the service.
 */
export function connectedChannels(me: unknown): Channel[] | undefined {
	if (!isRecord(me)) return undefined;
	const list = Array.isArray(me.numbers) ? me.numbers : me.channels;
	if (!Array.isArray(list)) return undefined;
	const connected = new Set<Channel>();
	for (const entry of list) {
		if (!isRecord(entry) || entry.connected === false) continue;
		if (entry.channel === 'qr' || entry.channel === 'business') connected.add(entry.channel);
	}
	return [...connected];
}
