import { emitMessage, emitStatus, setConnection } from './events';
import { conversationIdFor, digits, findMessage, storeMessage } from './inbox';
import { messageObject } from './messageView';
import {
	DEFAULT_SCOPES,
	type CampaignState,
	type Channel,
	type FilterEntry,
	type FilterMode,
	type SendStatus,
	type TemplateStatus,
} from './model';
import { SandboxApiError } from './sandboxError';
import { DEMO } from './seed';
import type { World } from './world';

export interface InjectMessageInput {
	channel?: Channel;
	/** The sender; for a group message, a member of the group. With `fromMe`, the person whose chat it is. */
	from: { phone: string; name?: string };
	/**
	 * The account's own message, typed on the phone (an API send goes through send_message): saved
	 * and emitted as message.sent; no API send limit counts it.
	 */
	fromMe?: boolean;
	/**
	 * Saved this long after it was written (a phone that was offline): its timestamp lies that far
	 * back, and its event is queued now.
	 */
	savedLateMs?: number;
	text?: string;
	type?: string;
	/** Group jid for a QR group message. */
	group?: string;
	attachment?: {
		fileName: string;
		mimeType: string;
		content?: string;
		downloadAvailable?: boolean;
	};
	quotedMessageId?: string;
	accountId?: string;
}

const bad = (message: string) => new SandboxApiError(400, 'invalid_input', message);

/** What tests and the control API can do to the world besides calling tools. */
export class SandboxActions {
	constructor(private readonly world: World) {}

	private account(accountId: string = DEMO.accountId) {
		const account = this.world.state.accounts.get(accountId);
		if (!account) throw bad(`No sandbox account ${accountId}.`);
		return account;
	}

	/** An incoming message: saved only when the filters / group selection allow, and then emitted. */
	injectMessage(input: InjectMessageInput) {
		const account = this.account(input.accountId);
		const channel = input.channel ?? 'qr';
		const own = input.fromMe === true;
		if (!input.from?.phone) throw bad('from.phone is required.');
		const group = input.group ? account.groups.get(input.group) : undefined;
		if (input.group && (!group || channel !== 'qr')) throw bad(`No QR group ${input.group}.`);
		const content = input.attachment?.content ?? '';
		const message = storeMessage(this.world.state, account, {
			conversationId: group ? group.jid : conversationIdFor(channel, input.from.phone),
			channel,
			chatType: group ? 'group' : 'individual',
			group: group ? { id: group.jid, name: group.subject } : null,
			from: own
				? { phone: account.channels[channel].phone, name: account.name }
				: { phone: digits(input.from.phone), name: input.from.name ?? '' },
			fromMe: own,
			to: own ? digits(input.from.phone) : null,
			type: input.type ?? (input.attachment ? 'document' : 'text'),
			text: input.text ?? '',
			quotedMessageId: input.quotedMessageId ?? null,
			attachment: input.attachment
				? {
						fileName: input.attachment.fileName,
						mimeType: input.attachment.mimeType,
						size: Buffer.byteLength(content),
						content: Buffer.from(content),
						// Business file downloads are never available (spec: Events).
						downloadAvailable: channel === 'qr' && (input.attachment.downloadAvailable ?? true),
					}
				: null,
			timestamp: this.world.clock.now() - (input.savedLateMs ?? 0),
			idempotencyKey: null,
		});
		emitMessage(this.world.events, message);
		return { saved: message.saved, message: messageObject(message) };
	}

	/** A provider status update for an own Business message (QR has no delivery ticks). */
	injectStatus(input: {
		messageId: string;
		status: SendStatus;
		errors?: { code: string; title: string }[];
		accountId?: string;
	}) {
		const account = this.account(input.accountId);
		const message = findMessage(account, input.messageId);
		if (!message || !message.fromMe) throw bad(`No own message ${input.messageId}.`);
		if (message.channel !== 'business')
			throw bad('Status updates exist for the Business channel only.');
		message.status = input.status;
		emitStatus(this.world.events, this.world.state, message, input.errors ?? []);
		return { message_id: message.id, status: message.status };
	}

	setChannel(
		channel: Channel,
		connected: boolean,
		options: { needsHuman?: boolean; reason?: string; accountId?: string } = {},
	) {
		const account = this.account(options.accountId);
		setConnection(this.world.events, account, channel, connected, options);
		return { ...account.channels[channel] };
	}

	createKey(input: { name: string; scopes?: string[]; owner?: boolean; accountId?: string }) {
		const key = this.world.state.createKey({
			accountId: this.account(input.accountId).id,
			name: input.name,
			scopes: input.scopes ?? [...DEFAULT_SCOPES],
			owner: input.owner ?? false,
		});
		return { name: key.name, key: key.secret, scopes: key.scopes, owner: key.owner };
	}

	revokeKey(secretOrName: string) {
		const key = this.world.state.revokeKey(secretOrName);
		return { name: key.name, revoked: true };
	}

	reviewTemplate(input: {
		name: string;
		language: string;
		status: TemplateStatus;
		accountId?: string;
	}) {
		const template = this.account(input.accountId).templates.find(
			(t) => t.name === input.name && t.language === input.language,
		);
		if (!template) throw bad(`No template ${input.name} (${input.language}).`);
		template.status = input.status;
		return { name: template.name, language: template.language, status: template.status };
	}

	/** Campaign start and pause are not tools; tests move campaigns with this. */
	setCampaignState(input: { campaignId: string; state: CampaignState; accountId?: string }) {
		const campaign = this.account(input.accountId).campaigns.get(input.campaignId.toLowerCase());
		if (!campaign) throw bad(`No campaign ${input.campaignId}.`);
		if (campaign.state === 'cancelled') throw bad('A cancelled campaign stays cancelled.');
		campaign.state = input.state;
		return { campaign_id: campaign.id, state: campaign.state };
	}

	setFilters(input: { mode?: FilterMode; entries?: FilterEntry[]; accountId?: string }) {
		const account = this.account(input.accountId);
		if (input.mode) account.filterMode = input.mode;
		if (input.entries)
			account.filters = input.entries.map((e) => ({ phone: e.phone, name: e.name ?? null }));
		return { mode: account.filterMode, entries: account.filters };
	}

	/** Every own message the sandbox accepted, across accounts. */
	sends() {
		return [...this.world.state.accounts.values()].flatMap((account) =>
			account.messages
				.filter((m) => m.fromMe && m.idempotencyKey !== null)
				.map((m) => ({
					account_id: account.id,
					message_id: m.id,
					channel: m.channel,
					conversation_id: m.conversationId,
					to: m.to,
					type: m.type,
					text: m.text,
					status: m.status,
					deleted: m.deleted,
					idempotency_key: m.idempotencyKey,
					at: new Date(m.timestamp).toISOString(),
				})),
		);
	}

	snapshot() {
		const { state } = this.world;
		return {
			now: state.iso(),
			accounts: [...state.accounts.values()].map((a) => ({
				id: a.id,
				plan: a.plan,
				inbox_storage_consent: a.inboxStorageConsent,
				channels: a.channels,
				chats: [...a.chats.values()],
				messages: a.messages.length,
				groups: [...a.groups.values()],
				templates: a.templates.map(({ name, language, category, status }) => ({
					name,
					language,
					category,
					status,
				})),
				campaigns: [...a.campaigns.values()].map((c) => ({
					...c,
					recipients: c.recipients.length,
				})),
				forms: [...a.forms.values()].map(({ id, name, status }) => ({ id, name, status })),
				filters: { mode: a.filterMode, entries: a.filters },
			})),
			keys: state.keys.map(({ name, accountId, scopes, owner, revoked }) => ({
				name,
				accountId,
				scopes,
				owner,
				revoked,
			})),
			operations: state.operations.size,
		};
	}
}
