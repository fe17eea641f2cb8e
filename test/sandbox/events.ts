import { eventMessage } from './messageView';
import type { AccountState, Channel, MessageRecord } from './model';
import type { SandboxState } from './state';

/** The part of the webhook service (test/sandbox/webhooks) the API side needs. */
export interface EventSink {
	emit(accountId: string, type: string, data: Record<string, unknown>): unknown;
}

/** Where connection.disconnected tells a human to act (not shown by the spec). */
export const DASHBOARD_URL = 'https://app.messaging-automation.example/dashboard/connections';

/** Events come from saved chats only; own messages are message.sent, never message.received. */
export function emitMessage(sink: EventSink, message: MessageRecord): void {
	if (!message.saved) return;
	sink.emit(message.accountId, message.fromMe ? 'message.sent' : 'message.received', {
		...eventMessage(message),
	});
}

/** message.status exists for the Business channel only: QR delivery ticks are not available. */
export function emitStatus(
	sink: EventSink,
	state: SandboxState,
	message: MessageRecord,
	errors: { code: string; title: string }[] = [],
): void {
	if (message.channel !== 'business' || !message.saved) return;
	sink.emit(message.accountId, 'message.status', {
		message_id: message.id,
		conversation_id: message.conversationId,
		channel: message.channel,
		status: message.status,
		errors,
		timestamp: state.iso(),
	});
}

export function setConnection(
	sink: EventSink,
	account: AccountState,
	channel: Channel,
	connected: boolean,
	options: { needsHuman?: boolean; reason?: string; actionNeeded?: string } = {},
): void {
	const state = account.channels[channel];
	if (state.connected === connected) return;
	state.connected = connected;
	if (connected) {
		if (!state.silentDrop)
			sink.emit(account.id, 'connection.connected', { channel, phone: state.phone });
		state.silentDrop = false;
		return;
	}
	// Short QR reconnects are silent: only states needing a human produce the event.
	state.silentDrop = options.needsHuman === false;
	if (state.silentDrop) return;
	sink.emit(account.id, 'connection.disconnected', {
		channel,
		phone: state.phone,
		reason: options.reason ?? 'logged_out',
		action_needed:
			options.actionNeeded ?? (channel === 'qr' ? 'scan_qr' : 'reconnect_business_account'),
		dashboard_url: DASHBOARD_URL,
	});
}
