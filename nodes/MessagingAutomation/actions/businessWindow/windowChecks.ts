import type { IDataObject } from 'n8n-workflow';

import { checkRecipientSendOptionsTool } from '../../../shared/catalogue/tools/check_recipient_send_options';
import type { MessagingClient } from '../../../shared/client/client';
import {
	PROOF_MARGIN_MS,
	windowFromCheck,
	windowFromItem,
	windowKey,
	type WindowState,
} from './windowState';

/**
 * The window of each Business recipient within one execution of the node: proven by the input
 * item when it carries the customer's recent message, else read once with
 * check_recipient_send_options (paced with the run's other reads) and reused for every further
 * item to the same person while it holds.
 */
export class WindowChecks {
	private readonly reads = new Map<string, Promise<WindowState>>();

	constructor(
		private readonly client: MessagingClient,
		private readonly now: () => number = Date.now,
	) {}

	async state(recipient: Record<string, unknown>, item?: IDataObject): Promise<WindowState> {
		const key = windowKey(recipient);
		const proven = key === undefined ? undefined : windowFromItem(item, key, this.now());
		if (proven) return proven;
		const cacheKey = key ?? JSON.stringify(recipient);
		const state = await this.remembered(cacheKey, recipient);
		// A long run (thousands of paced sends) can outlast a window it read as open: read it again.
		if (!state.open || state.until === null) return state;
		if (Date.parse(state.until) - PROOF_MARGIN_MS > this.now()) return state;
		this.reads.delete(cacheKey);
		return await this.remembered(cacheKey, recipient);
	}

	private async remembered(cacheKey: string, recipient: Record<string, unknown>) {
		let read = this.reads.get(cacheKey);
		if (!read) {
			read = this.read(recipient);
			this.reads.set(cacheKey, read);
			// A failed read is not an answer: the next item to this person asks again.
			read.catch(() => this.reads.delete(cacheKey));
		}
		return await read;
	}

	private async read(recipient: Record<string, unknown>): Promise<WindowState> {
		const { channel, phoneNumber, conversationId } = recipient;
		const { data } = await this.client.callTool<IDataObject>(checkRecipientSendOptionsTool.name, {
			channel,
			phoneNumber,
			conversationId,
		});
		return windowFromCheck(data);
	}
}
