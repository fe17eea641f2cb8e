import type { RequestHelperFunctions } from 'n8n-workflow';

import type { AnswerCheck } from '../../shared/conversation/answers';
import { ANSWER_OFFER_TIMEOUT_MS } from '../../shared/conversation/deliveryTiming';
import { reasonOf } from '../../shared/conversation/reader';
import { isRecord } from '../../shared/guards';

/*
 * The trigger's two requests to a question's own signed link. A probe names no message: the Send
 * and Wait node answers at once, without a look-up, whether its question waits and by which rules
 * it takes answers. An offer names the messages that answer it by those rules, in written order;
 * the node checks them against its own read and resumes with the first it accepts. What is posted
 * names messages, nothing more.
 */

export type Probe =
	| { waiting: true; rules: AnswerCheck | null }
	| { waiting: false; failed?: string };

export interface Offer {
	/** The message the question took. */
	taken?: string;
	/** Why the offer reached no verdict. */
	failed?: string;
	/**
	 * With `failed`: nothing was resumed, the node said so (it could not look up or read in time) or
	 * no connection to n8n was made.
	 */
	resumedNothing?: boolean;
	/** n8n answered itself, not the node: the execution no longer waits (answered, timed out). */
	notWaiting?: boolean;
}

/**
 * The webhook probes (receive), so does the Catch-Up poll (catchUp/answerCatchUp.ts); the run's
 * first step offers (answerPass.ts).
 */
export interface Requester {
	helpers: Pick<RequestHelperFunctions, 'httpRequest'>;
}

async function post(
	context: Requester,
	link: string,
	chatAnswer: { conversationId?: string; messageIds: string[] },
	timeoutMs = ANSWER_OFFER_TIMEOUT_MS,
): Promise<{ status: number; body: unknown }> {
	const response = (await context.helpers.httpRequest({
		method: 'POST',
		url: link,
		body: { chatAnswer },
		json: true,
		timeout: timeoutMs,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
	})) as { statusCode?: number; body?: unknown };
	return { status: response.statusCode ?? 0, body: response.body };
}

const failure = (status: number, body: unknown) =>
	`HTTP ${status}${isRecord(body) && typeof body.unchecked === 'string' ? `: ${body.unchecked}` : ''}`;

/** The node's rules as posted; null when they are not rules (Answer in Chat off). */
function asCheck(value: unknown): AnswerCheck | null {
	if (!isRecord(value) || !isRecord(value.rules) || !Array.isArray(value.groupNumbers)) return null;
	const kind = value.rules.kind;
	if (kind !== 'freeText' && !(kind === 'approval' && Array.isArray(value.rules.choices)))
		return null;
	return value as unknown as AnswerCheck;
}

/** An ask given less time than this is not made: it fails as one that timed out would. */
const LEAST_ASK_MS = 200;

/**
 * Whether the question waits, and its rules (null: it takes no answers in the chat). Once the
 * execution stopped waiting (answered, timed out), n8n shows its "no action required" page or
 * refuses with 404 or 409.
 */
export async function probe(
	context: Requester,
	link: string,
	conversationId: string | undefined,
	timeoutMs = ANSWER_OFFER_TIMEOUT_MS,
): Promise<Probe> {
	if (timeoutMs < LEAST_ASK_MS)
		return { waiting: false, failed: "no time left to ask before the delivery's answer is due" };
	try {
		const { status, body } = await post(
			context,
			link,
			{ conversationId, messageIds: [] },
			Math.min(timeoutMs, ANSWER_OFFER_TIMEOUT_MS),
		);
		if (status >= 500) return { waiting: false, failed: failure(status, body) };
		if (!isRecord(body) || body.waiting !== true) return { waiting: false };
		return { waiting: true, rules: asCheck(body.rules) };
	} catch (error) {
		return { waiting: false, failed: reasonOf(error) };
	}
}

/**
 * The message the question took, or why the offer reached no verdict (`failed`); neither: none
 * taken (`notWaiting`: n8n refused it, 404 or 409 or its "no action required" page).
 */
export async function offer(
	context: Requester,
	link: string,
	conversationId: string | undefined,
	messageIds: string[],
): Promise<Offer> {
	try {
		const { status, body } = await post(context, link, { conversationId, messageIds });
		const fromNode = isRecord(body) && typeof body.answered === 'boolean';
		if (status >= 500)
			return {
				failed: failure(status, body),
				resumedNothing: fromNode && typeof body.unchecked === 'string',
			};
		if (!fromNode) return { notWaiting: true };
		if (body.answered !== true) return {};
		return { taken: typeof body.messageId === 'string' ? body.messageId : messageIds[0] };
	} catch (error) {
		return { failed: reasonOf(error), resumedNothing: neverConnected(error) };
	}
}

/** Errors of a connection never made: the offer reached nothing, so it resumed nothing. */
const NOT_CONNECTED = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
]);

function neverConnected(error: unknown): boolean {
	for (let cause = error, depth = 0; isRecord(cause) && depth < 4; depth++) {
		if (typeof cause.code === 'string' && NOT_CONNECTED.has(cause.code)) return true;
		cause = cause.cause;
	}
	return false;
}
