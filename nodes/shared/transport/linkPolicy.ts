/*
 * Which download links n8n may fetch. A link comes from the service's answer, which a compromised
 * or spoofed service, or a proxy, could point anywhere: at the cloud metadata endpoint, at a
 * database on the n8n host, at a data: URL. Only http(s) links are fetched, and never one whose
 * host is a private, loopback, link-local or otherwise non-public address, unless it is the
 * service's own origin (scheme, host and port of the credential's Base URL), which is how the
 * sandbox and self-hosted services on a private network keep working. Host names are judged as
 * written: one that resolves to a private address is caught only by n8n's own SSRF protection.
 */

export type LinkVerdict =
	| { ok: true; url: URL; ownOrigin: boolean }
	| { ok: false; reason: string };

const LOCAL_NAME = /(^|\.)(localhost|local|internal)\.?$/i;
const MALFORMED_ESCAPE = /%(?![0-9a-f]{2})/i;

function ipv4Octets(host: string): number[] | undefined {
	const parts = host.split('.');
	if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return undefined;
	const octets = parts.map(Number);
	return octets.every((octet) => octet <= 255) ? octets : undefined;
}

function isNonPublicIpv4([a, b]: number[]): boolean {
	return (
		a === 0 || // "this network"
		a === 10 ||
		a === 127 ||
		(a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
		(a === 169 && b === 254) || // link-local, cloud metadata
		(a === 172 && b >= 16 && b <= 31) ||
		(a === 192 && b === 168) ||
		(a === 192 && b === 0) ||
		(a === 198 && (b === 18 || b === 19)) ||
		a >= 224 // multicast, reserved, broadcast
	);
}

/** The IPv4 address an IPv6 literal embeds (mapped `::ffff:`, compatible `::`, NAT64 `64:ff9b::`). */
function embeddedIpv4(groups: number[]): number[] | undefined {
	const high = groups.slice(0, 6);
	const mapped =
		high.slice(0, 5).every((group) => group === 0) && (high[5] === 0xffff || high[5] === 0);
	const nat64 =
		groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0);
	if (!mapped && !nat64) return undefined;
	return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff];
}

/** The eight groups of an IPv6 literal as the URL parser writes it (compressed, hex, no dotted tail). */
function ipv6Groups(host: string): number[] | undefined {
	const halves = host.split('::');
	if (halves.length > 2) return undefined;
	const read = (part: string) =>
		part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16));
	const head = read(halves[0]);
	const tail = halves.length === 2 ? read(halves[1]) : [];
	const groups =
		halves.length === 2
			? [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail]
			: head;
	return groups.length === 8 &&
		groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff)
		? groups
		: undefined;
}

function isNonPublicIpv6(host: string): boolean {
	const groups = ipv6Groups(host);
	if (!groups) return true; // not understood: not trusted
	const v4 = embeddedIpv4(groups);
	// `::` and `::1` read as 0.0.0.0 and 0.0.0.1 here: "this network", refused with it.
	if (v4) return isNonPublicIpv4(v4);
	const first = groups[0];
	return (
		(first & 0xfe00) === 0xfc00 || // unique local
		(first & 0xffc0) === 0xfe80 || // link-local
		(first & 0xff00) === 0xff00 // multicast
	);
}

/** True for hosts that are not on the public internet, as far as the written host tells. */
export function isNonPublicHost(hostname: string): boolean {
	const host = hostname.toLowerCase();
	if (host.startsWith('[') && host.endsWith(']')) return isNonPublicIpv6(host.slice(1, -1));
	const octets = ipv4Octets(host);
	if (octets) return isNonPublicIpv4(octets);
	return LOCAL_NAME.test(host) || !host.includes('.');
}

/** Whether `link` may be fetched, given the service's origin (undefined when the Base URL does not parse). */
export function checkLink(link: string, serviceOrigin: string | undefined): LinkVerdict {
	if (!URL.canParse(link)) return { ok: false, reason: 'the download link is not a valid URL' };
	const url = new URL(link);
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		return {
			ok: false,
			reason: `only http and https links are downloaded, not ${url.protocol} links`,
		};
	}
	if (MALFORMED_ESCAPE.test(url.pathname) || MALFORMED_ESCAPE.test(url.search)) {
		return { ok: false, reason: 'the download link contains a malformed percent-escape' };
	}
	const ownOrigin = serviceOrigin !== undefined && url.origin === serviceOrigin;
	if (!ownOrigin && isNonPublicHost(url.hostname)) {
		return {
			ok: false,
			reason: `the download link points at a private, loopback or link-local address (${url.host}), which is only allowed on the service's own address`,
		};
	}
	return { ok: true, url, ownOrigin };
}
