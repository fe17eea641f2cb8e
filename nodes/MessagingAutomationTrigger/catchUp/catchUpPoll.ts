import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { listConversationsTool } from '../../shared/catalogue/tools/list_conversations';
import { CATCH_UP_AFTER_MS } from '../../shared/conversation/catchUp';
import { ConversationReader, reasonOf } from '../../shared/conversation/reader';
import { createNodeClient } from '../../shared/transport/nodeClient';
import { pageMinimum } from '../hold/turn';
import { catchUpChat } from './chatCatchUp';
import { withCarrier } from '../run/runClaim';
import { listedPage, type ListedChat } from './conversationList';
import { endpointReport, listingFailure } from './endpointReport';
import {
	emitTracked,
	memoryOf,
	moveFloor,
	pollKey,
	unsettled,
	windowOf,
	type PollContext,
	type PollMemory,
	type Window,
} from './pollMemory';
import { otherCredential, pollLookup, type CatchUpSettings } from './sharedSettings';
import { noSettingsReport, settingsFound, testRunError } from './testRunError';

/*
 * Messaging Automation Catch-Up: the bursts the trigger beside it never got to run, found by a
 * poll. Each poll lists the account's chats once (newest activity first) and reads only chats
 * whose newest message is old enough for every burst in it to have closed CATCH_UP_AFTER_MS ago
 * (catchUp.ts: a younger one may still be held by the trigger), that changed since this poll last
 * settled them, at most MAX_CHATS a poll (the rest, the newest, at the next poll). Each read's
 * unanswered messages (after the account's last one) make bursts by the trigger's own rules; each
 * becomes an item like the trigger's, and the run's first step claims it with the trigger's keys
 * (runClaim.ts), so a burst that ran, or that the trigger runs at the same moment, runs once. What
 * the poll keeps between polls, and when it lets a chat go: pollMemory.ts; what it says about the
 * trigger's endpoint: endpointReport.ts.
 */

/** Chats read in one poll at most; the others wait for the next poll. */
export const MAX_CHATS = 50;
/** list_conversations pages in one poll at most (100 chats each). */
const MAX_LIST_PAGES = 3;
const LIST_PAGE_SIZE = 100;

/** The service's time from an answer's `Date` header; this host's clock when it sent none. */
const serviceTime = (date: string | undefined) => {
	const at = date ? Date.parse(date) : Number.NaN;
	return Number.isNaN(at) ? Date.now() : at;
};

interface Listing {
	chats: ListedChat[];
	/** The service's time of the first page. */
	now: number;
	/** When the listing began: a sweep's first page, maybe polls ago. */
	startedAt: number;
	/** Set when the pages ran out above the floor: the cursor of the last page listed. */
	cursor?: string;
}

/**
 * The chats changed since the floor, newest activity first, at most MAX_LIST_PAGES pages; a
 * listing cut short above the floor goes on at the next poll (`sweep`), so a chat below the first
 * pages is listed however busy the account (a chat active meanwhile moves to the top, after the
 * sweep's start: the next listing has it). It goes on by listing its last page again: where the
 * cursor is an offset, a chat deleted above it meanwhile moves the chats below up by one, and the
 * first of them would be listed by no page (R45e-5).
 */
async function listChats(
	context: PollContext,
	floor: (now: number) => number,
	sweep: { cursor: string; startedAt: number } | undefined,
): Promise<Listing> {
	const client = await createNodeClient(context, { timeoutMs: 15_000 });
	const chats: ListedChat[] = [];
	let now: number | undefined;
	let cursor = sweep?.cursor;
	let cut: string | undefined;
	for (let page = 0; page < MAX_LIST_PAGES; page++) {
		const answer = await client.callTool(listConversationsTool.name, {
			limit: LIST_PAGE_SIZE,
			...(cursor ? { cursor } : {}),
		});
		now ??= serviceTime(answer.date);
		const listed = listedPage(answer.data);
		chats.push(...listed.chats);
		const oldest = listed.chats.at(-1)?.lastAt ?? Number.NEGATIVE_INFINITY;
		// '' is the first page: a sweep cut there lists it again.
		cut = listed.cursor && oldest > floor(now) ? (cursor ?? '') : undefined;
		if (!listed.cursor || oldest <= floor(now)) break;
		cursor = listed.cursor;
	}
	const at = now ?? Date.now();
	return {
		chats,
		now: at,
		startedAt: sweep?.startedAt ?? at,
		...(cut === undefined ? {} : { cursor: cut }),
	};
}

/** The listing, or null when its failure is only logged at this poll (listingFailure). */
async function listingOf(
	context: PollContext,
	floor: (now: number) => number,
	before: PollMemory | undefined,
): Promise<Listing | null> {
	try {
		return await listChats(context, floor, before?.sweep);
	} catch (error) {
		const thrown = listingFailure(context, before, error);
		if (thrown) throw thrown;
		return null;
	}
}

/** Logged once per poll node and reason: why the poll catches nothing up. */
const toldWhy = new Map<string, string>();

/** The trigger's settings the poll follows; undefined (and why, once) when there are none. */
async function settingsOf(context: PollContext): Promise<CatchUpSettings | undefined> {
	const lookup = await pollLookup(context, context.getMode() !== 'manual' && !memoryOf(context));
	const key = pollKey(context);
	if ('settings' in lookup) {
		toldWhy.delete(key);
		settingsFound(key);
		return lookup.settings;
	}
	const { why } = lookup;
	const message = `Messaging Automation Catch-Up: catches up nothing: ${why}`;
	if (context.getMode() === 'manual') throw testRunError(context);
	if (toldWhy.get(key) !== why) context.logger.warn(message);
	toldWhy.set(key, why);
	const report = noSettingsReport(context as IPollFunctions, key, lookup);
	if (report) throw report;
	return undefined;
}

/**
 * The listed chats to read, oldest first: changed above the floor, within Max Age (`leftChats`:
 * those older), quiet long enough, and not settled at their newest message. A chat the account wrote
 * last is read too: the bot's answer to the person's latest burst leaves an earlier one unanswered
 * (catchUp.ts, R5-4).
 */
function dueChats(
	chats: readonly ListedChat[],
	window: Window,
	settings: CatchUpSettings,
): { due: ListedChat[]; leftChats: number } {
	const ready = window.now - CATCH_UP_AFTER_MS - settings.grouping.quietMs - 1;
	const olderThanLimit = window.now - settings.catchUpMs;
	let leftChats = 0;
	const due = chats
		.filter((chat) => chat.lastAt > window.listFloor)
		.filter((chat) => {
			if (chat.lastAt > olderThanLimit) return true;
			leftChats++;
			return false;
		})
		.filter(
			(chat) =>
				chat.lastAt <= ready &&
				unsettled(window.memory ?? window.seen, chat.conversationId, chat.lastAt),
		)
		.sort((a, b) => a.lastAt - b.lastAt);
	return { due, leftChats };
}

/**
 * One poll: the caught-up bursts, for the run's first step to claim (runClaim.ts). An active
 * workflow's poll emits them itself, to learn how the claim went (pollMemory.ts), and returns
 * null; a test run returns them. Without a trigger to follow (sharedSettings.ts) it reads nothing.
 */
export async function pollCatchUp(context: PollContext): Promise<INodeExecutionData[][] | null> {
	const settings = await settingsOf(context);
	if (!settings) return null;
	// A test run keeps no memory: its checks are those of an activation's first poll.
	const before = context.getMode() === 'manual' ? undefined : memoryOf(context);
	const wrong = before ? undefined : await otherCredential(context, settings);
	if (wrong) throw wrong;
	let window: Window | undefined;
	const windowAt = (at: number) => (window ??= windowOf(context, settings, at));
	const listing = await listingOf(context, (at) => windowAt(at).listFloor, before);
	if (!listing) return null;
	const { now } = listing;
	const current = windowAt(now);
	const memory = current.memory;
	const { due, leftChats } = dueChats(listing.chats, current, settings);
	const reader = new ConversationReader(context, pageMinimum({ historyCount: 0, ...settings }));
	// The bot's items and Paused Chats' (the trigger's two outputs with Human Takeover on).
	const items: INodeExecutionData[][] = [[], []];
	const taken = new Map<string, number>();
	let left = current.firstOfActivation ? leftChats : 0;
	// The floor moves on only once every chat above it was read: the rest wait above it.
	let allRead = due.length <= MAX_CHATS;
	for (const chat of due.slice(0, MAX_CHATS)) {
		try {
			const outcome = await catchUpChat(context, reader, chat, settings, current);
			outcome.items.forEach((list, output) => items[output].push(...list));
			left += outcome.left;
			if (outcome.readAgain) allRead = false;
			else if (outcome.items.flat().length > 0) taken.set(chat.conversationId, chat.lastAt);
			else memory?.read.set(chat.conversationId, chat.lastAt);
		} catch (error) {
			allRead = false;
			context.logger.warn(
				`Messaging Automation Catch-Up: could not read conversation ${chat.conversationId} (${reasonOf(error)}); the next poll tries again`,
			);
		}
	}
	if (left > 0)
		context.logger.warn(
			`Messaging Automation Catch-Up: left ${left} conversation burst(s) written while the workflow was inactive and older than the trigger's Max Age (${settings.catchUpMs / 3_600_000} h): they do not run`,
		);
	if (!memory) return items.flat().length > 0 ? items : null;
	// A sweep goes on only past pages whose chats were all read; else they are listed again.
	if (allRead) {
		memory.sweep =
			listing.cursor === undefined
				? undefined
				: { cursor: listing.cursor, startedAt: listing.startedAt };
	}
	if (items.flat().length > 0)
		emitTracked(context as IPollFunctions, withCarrier(items), taken, memory);
	moveFloor(memory, allRead && listing.cursor === undefined ? listing.startedAt : undefined);
	if (current.firstOfActivation) return null;
	const report = await endpointReport(context as IPollFunctions, memory, settings.endpointId, now);
	if (report) throw report;
	return null;
}
