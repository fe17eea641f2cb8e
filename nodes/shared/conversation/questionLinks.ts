import type { TimelineMessage } from './timeline';

/*
 * Send and Wait's links in the saved messages. A question is the account's own message holding a
 * signed resume link marked for answers in the chat; its text is the only record of it the
 * conversation keeps. Anyone can make the account repeat a text (a bot that echoes what it was
 * told), so a link is followed only when it is one this n8n builds: its own waiting-webhook base,
 * an execution and a node below it, and n8n's signature.
 */

/** The link parameter that marks a question's links as taking answers in the chat. */
export const CHAT_PARAMETER = 'chat';
/** The link parameter holding the wait limit (ms since 1970), when there is one. */
export const UNTIL_PARAMETER = 'until';
/** n8n's parameter signing a resume link (HMAC of its path and query). */
const SIGNATURE_PARAMETER = 'signature';

const URLS = /https?:\/\/\S+/g;

function parsed(candidate: string): URL | undefined {
	try {
		return new URL(candidate);
	} catch {
		return undefined;
	}
}

const isChatLink = (url: URL) =>
	url.searchParams.get(CHAT_PARAMETER) === '1' && url.searchParams.has(SIGNATURE_PARAMETER);

/** The link an answer to this message goes to, when it is a question taking answers in the chat. */
export function questionLink(entry: TimelineMessage): string | undefined {
	if (!entry.fromMe || typeof entry.message.text !== 'string') return undefined;
	for (const [candidate] of entry.message.text.matchAll(URLS)) {
		const url = parsed(candidate);
		if (url && isChatLink(url)) return url.toString();
	}
	return undefined;
}

/**
 * Whether `link` is a resume link of this n8n: the origin of `waitingBase` (n8n's
 * `webhookWaitingBaseUrl`, as `$execution.resumeUrl` starts), its path followed by an execution id
 * and at most a node id (n8n 1.x and 2.x build them so), and signed. Nothing else is requested,
 * whatever a message says.
 */
export function isOwnResumeLink(link: string, waitingBase: string): boolean {
	const url = parsed(link);
	const base = parsed(waitingBase);
	if (!url || !base || url.origin !== base.origin || url.username || url.password) return false;
	const prefix = base.pathname.replace(/\/+$/, '');
	if (!url.pathname.startsWith(`${prefix}/`)) return false;
	const rest = url.pathname.slice(prefix.length + 1).split('/');
	const plain = (segment: string) => /^[\w-]+$/.test(segment);
	return rest.length <= 2 && rest.every(plain) && url.searchParams.has(SIGNATURE_PARAMETER);
}

/** What a signed resume link reads as in history and memory: a model or a log gets no live link. */
export const LINK_MARK = '[answer link]';

/** `text` with every signed resume link replaced by a short mark. */
export function withoutLiveLinks(text: string): string {
	return text.replace(URLS, (candidate) => {
		const url = parsed(candidate);
		return url?.searchParams.has(SIGNATURE_PARAMETER) ? LINK_MARK : candidate;
	});
}
