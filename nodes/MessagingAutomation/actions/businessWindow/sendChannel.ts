import { connectedChannels } from '../../../shared/client/accountChannels';
import type { MessagingClient } from '../../../shared/client/client';
import type { Channel } from '../../../shared/webhooks/events';

/**
 * The channel a send goes on. An input that leaves `channel` out goes on the only channel the
 * account has connected (spec: check_recipient_send_options), so the node reads which that is, at
 * most once per run of the node (GET /api/v1/me). Undefined when the service must choose: both
 * channels are connected (it then asks for the channel), none is, or the answer does not say.
 */
export class SendChannel {
	private read?: Promise<Channel | undefined>;

	constructor(private readonly client: MessagingClient) {}

	async of(input: Record<string, unknown>): Promise<Channel | undefined> {
		if (input.channel === 'qr' || input.channel === 'business') return input.channel;
		if (input.channel !== undefined) return undefined;
		if (!this.read) {
			const read = this.onlyConnected();
			this.read = read;
			// A failed read is not an answer: the next item asks again.
			read.catch(() => {
				if (this.read === read) this.read = undefined;
			});
		}
		return await this.read;
	}

	private async onlyConnected(): Promise<Channel | undefined> {
		const channels = connectedChannels((await this.client.getMe()).data);
		return channels?.length === 1 ? channels[0] : undefined;
	}
}
