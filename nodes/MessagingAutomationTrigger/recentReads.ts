import type { ConversationRead } from '../shared/conversation/reader';

/** A read and what it vouches for: every message written up to `asOf`. */
export interface KnownRead {
	read: ConversationRead;
	asOf: number;
	complete: boolean;
	/** The runs it started (their identities): it starts none of them again. */
	ran: Set<string>;
	/** Local time it was kept. */
	keptAt?: number;
}

/**
 * Each conversation's last read, kept a minute after its desk goes idle: the service sends a
 * burst's deliveries again at scattered times after a restart, and the read the first of them made
 * settles the others (written before it) without reading again. Bounded, oldest out first.
 */
const recentReads = new Map<string, KnownRead>();
const KEEP_READ_MS = 60_000;
const MAX_KEPT_READS = 500;

export function remember(key: string, known: KnownRead): void {
	recentReads.delete(key);
	recentReads.set(key, { ...known, keptAt: Date.now() });
	for (const oldest of recentReads.keys()) {
		if (recentReads.size <= MAX_KEPT_READS) break;
		recentReads.delete(oldest);
	}
}

export function recentRead(key: string): KnownRead | undefined {
	const known = recentReads.get(key);
	return known && Date.now() - (known.keptAt ?? 0) < KEEP_READ_MS ? known : undefined;
}
