import type { IDataObject } from 'n8n-workflow';

import { checkRecipientSendOptionsTool } from '../../../shared/catalogue/tools/check_recipient_send_options';
import type { MessagingClient } from '../../../shared/client/client';
import type { Channel } from '../../../shared/webhooks/events';
import { SendChannel } from './sendChannel';
import {
	PROOF_MARGIN_MS,
	windowFromCheck,
	windowFromItem,
	windowKey,
	type WindowState,
} from './windowState';

interface Read {
	state: Promise<WindowState>;
	/** When it was asked, by n8n's clock. */
	at: number;
}

/**
 * The window of each Business recipient within one execution of the node: proven by the input
 * item when it carries the customer's recent message, else read with check_recipient_send_options
 * (paced with the run's other reads) and reused for every further item to the same person while
 * what it read still holds.
 */
export class WindowChecks {
	private readonly reads = new Map<string, Read>();
	private readonly channels: SendChannel;

	constructor(
		private readonly client: MessagingClient,
		private readonly now: () => number = Date.now,
	) {
		this.channels = new SendChannel(client);
	}

	/** The channel a send goes on, the input's or the account's only one; undefined when the service chooses. */
	async channel(input: Record<string, unknown>): Promise<Channel | undefined> {
		return await this.channels.of(input);
	}

	async state(recipient: Record<string, unknown>, item?: IDataObject): Promise<WindowState> {
		const key = windowKey(recipient);
		const proven = key === undefined ? undefined : windowFromItem(item, key, this.now());
		if (proven) return proven;
		const cacheKey = key ?? JSON.stringify(recipient);
		const known = this.reads.get(cacheKey);
		if (known) {
			const read = await known.state;
			if (this.holds(read, known.at)) return read;
			if (this.reads.get(cacheKey) === known) this.reads.delete(cacheKey);
		}
		return await this.remembered(cacheKey, recipient).state;
	}

	/**
	 * Whether an earlier read still decides. A closed window stays closed for the run. An open one
	 * holds until its last margin before `until` by n8n's clock, which covers a service clock that
	 * runs ahead of n8n's (as the trigger's proof does); one whose end the service did not say holds
	 * for the margin after the read. After that the node reads again, and the service's fresh answer
	 * decides the item it was read for.
	 */
	private holds(read: WindowState, at: number): boolean {
		if (!read.open) return true;
		if (read.until === null) return this.now() - at < PROOF_MARGIN_MS;
		return Date.parse(read.until) - PROOF_MARGIN_MS > this.now();
	}

	private remembered(cacheKey: string, recipient: Record<string, unknown>): Read {
		let read = this.reads.get(cacheKey);
		if (!read) {
			const asked: Read = { state: this.read(recipient), at: this.now() };
			this.reads.set(cacheKey, asked);
			// A failed read is not an answer: the next item to this person asks again.
			asked.state.catch(() => {
				if (this.reads.get(cacheKey) === asked) this.reads.delete(cacheKey);
			});
			read = asked;
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
