import { NodeOperationError, type IHookFunctions, type WorkflowActivateMode } from 'n8n-workflow';

import { ANSWER_OFFER_TIMEOUT_MS } from '../../shared/conversation/deliveryTiming';
import { reasonOf } from '../../shared/conversation/reader';
import { readSettings } from '../settings';

/*
 * Pass Answers to Send and Wait hands a reply to its question through the question's own link,
 * which n8n builds on the same public address as this trigger's webhook URL (WEBHOOK_URL). When
 * n8n cannot reach that address from where it runs (Docker without hairpin, a firewall, a proxy
 * that only serves the outside), every offer fails and the answer waits for the service's retries
 * in vain: said when the workflow is published, where a bad key is said, not found in a log later.
 */

/**
 * Publications a person starts. At n8n's start ('init') and on a leader change its server may not
 * answer yet, and a failed check there would keep a working trigger off; test URLs hold no answers.
 */
const CHECKED: ReadonlySet<WorkflowActivateMode> = new Set(['activate', 'update', 'create']);

/**
 * Network failures in plain words: n8n's publication status shows only the error's message, and
 * n8n replaces a message naming an error code (ECONNREFUSED, ...) with a generic sentence of its own.
 */
const PLAIN: Readonly<Record<string, string>> = {
	ECONNREFUSED: 'connection refused',
	ECONNRESET: 'connection reset',
	ENOTFOUND: 'host not found',
	EAI_AGAIN: 'host not found',
	EHOSTUNREACH: 'host unreachable',
	ETIMEDOUT: 'no answer in time',
	ECONNABORTED: 'no answer in time',
};

interface Unreachable {
	/** For the message, when it can be said in plain words. */
	plain?: string;
	/** As the request failed, for the description. */
	said: string;
}

/** Why n8n's own webhook URL did not answer as n8n, or undefined when it did. */
async function unreachable(hook: IHookFunctions, url: string): Promise<Unreachable | undefined> {
	try {
		const response = (await hook.helpers.httpRequest({
			method: 'GET',
			url,
			timeout: ANSWER_OFFER_TIMEOUT_MS,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
		})) as { statusCode?: number };
		const status = response.statusCode ?? 0;
		// n8n answers a GET on a POST webhook with 404; a 5xx is a proxy in front of nothing.
		if (status > 0 && status < 500) return undefined;
		return { plain: `HTTP ${status}`, said: `HTTP ${status}` };
	} catch (error) {
		const code = (error as { code?: unknown }).code;
		return { plain: typeof code === 'string' ? PLAIN[code] : undefined, said: reasonOf(error) };
	}
}

/** Fails the publication when Pass Answers to Send and Wait is on and n8n cannot reach itself. */
export async function checkOwnWebhookUrl(hook: IHookFunctions): Promise<void> {
	if (!CHECKED.has(hook.getActivationMode())) return;
	if (!readSettings(hook).turn.answers) return;
	const url = hook.getNodeWebhookUrl('default');
	if (!url) return;
	const reason = await unreachable(hook, url);
	if (reason === undefined) return;
	const why = reason.plain ? ` (${reason.plain})` : '';
	throw new NodeOperationError(
		hook.getNode(),
		`This n8n cannot reach its own webhook URL ${url}${why}, which Pass Answers to Send and Wait needs: make that address reachable from the n8n server itself, or turn the option off`,
		{
			description: `Asked when the workflow was published, it got: ${reason.said}. Pass Answers to Send and Wait hands each reply in the chat to the waiting question through the question's link, which starts with the same address. Make that address reachable from the n8n server itself (WEBHOOK_URL, the proxy, the firewall), or turn off Pass Answers to Send and Wait: the question's links still answer it.`,
		},
	);
}
