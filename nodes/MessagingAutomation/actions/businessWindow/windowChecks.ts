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
	private readonly reads = new Map<string, { state: Promise<WindowState>; at: number }>();

	constructor(
		private readonly client: MessagingClient,
		private readonly now: () => number = Date.now,
	) {}

	async state(recipient: Record<string, unknown>, item?: IDataObject): Promise<WindowState> {
		const key = windowKey(recipient);
		const proven = key === undefined ? undefined : windowFromItem(item, key, this.now());
		if (proven) return proven;
		const cacheKey = key ?? JSON.stringify(recipient);
		const { state, at } = this.remembered(cacheKey, recipient);
		const read = await state;
		// A long run (thousands of paced sends) can outlast a window it read as open: read it again,
		// once the read is that old (the service's clock may differ from n8n's by minutes).
		if (!read.open || read.until === null || this.now() - at < PROOF_MARGIN_MS) return read;
		if (Date.parse(read.until) - PROOF_MARGIN_MS > this.now()) return read;
		this.reads.delete(cacheKey);
		return await this.remembered(cacheKey, recipient).state;
	}

	private remembered(cacheKey: string, recipient: Record<string, unknown>) {
		let read = this.reads.get(cacheKey);
		if (!read) {
			read = { state: this.read(recipient), at: this.now() };
			this.reads.set(cacheKey, read);
			// A failed read is not an answer: the next item to this person asks again.
			read.state.catch(() => this.reads.delete(cacheKey));
		}
		return read;
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
