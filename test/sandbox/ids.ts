import { randomBytes } from 'node:crypto';

/** Random source for ids and secrets; a seed makes a sandbox run reproducible. */
export interface Ids {
	random(): number;
	hex(bytes: number): string;
	uuid(): string;
	prefixed(prefix: string, bytes?: number): string;
}

/** mulberry32: tiny, fast and good enough for reproducible test identifiers (not for secrets in production). */
function seeded(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export function createIds(seed?: number): Ids {
	const random =
		seed === undefined ? () => randomBytes(4).readUInt32BE() / 4294967296 : seeded(seed);
	const hex = (bytes: number) => {
		let out = '';
		for (let i = 0; i < bytes; i++)
			out += Math.floor(random() * 256)
				.toString(16)
				.padStart(2, '0');
		return out;
	};
	return {
		random,
		hex,
		uuid() {
			const h = hex(16);
			const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
			return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
		},
		prefixed(prefix, bytes = 12) {
			return `${prefix}${hex(bytes)}`;
		},
	};
}
