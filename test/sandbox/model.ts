/** The sandbox's records. Field names are internal; tools shape their own responses. */

export type Channel = 'qr' | 'business';
export type Plan = 'starter' | 'pro' | 'scale';
/** Only this plan includes API keys and webhooks (spec: Authentication 4). */
export const API_PLAN: Plan = 'scale';

export const SCOPES = {
	read: 'messenger.read',
	send: 'messenger.send',
	groups: 'messenger.groups',
	webhooks: 'messenger.webhooks:manage',
} as const;
export const DEFAULT_SCOPES: readonly string[] = [SCOPES.read, SCOPES.send];
export const ALL_SCOPES: readonly string[] = Object.values(SCOPES);

export interface ApiKey {
	id: string;
	secret: string;
	name: string;
	accountId: string;
	scopes: string[];
	owner: boolean;
	revoked: boolean;
	createdAt: number;
}

export interface ChannelState {
	channel: Channel;
	phone: string;
	connected: boolean;
	/** The last drop was a short reconnect: no event went out, so none comes back either. */
	silentDrop: boolean;
}

export interface Contact {
	phone: string;
	name: string;
}

export interface Attachment {
	fileName: string;
	mimeType: string;
	size: number;
	content: Buffer;
	/** False until the file is saved, and always false on Business (downloads not available). */
	downloadAvailable: boolean;
}

export interface MessageRecord {
	id: string;
	storedId: string;
	accountId: string;
	conversationId: string;
	channel: Channel;
	chatType: 'individual' | 'group';
	group: { id: string; name: string } | null;
	from: Contact;
	fromMe: boolean;
	/** Recipient of an own one-to-one message; null otherwise. */
	to: string | null;
	type: string;
	text: string;
	quotedMessageId: string | null;
	attachment: Attachment | null;
	timestamp: number;
	/** Delivery state of own messages: accepted -> sent -> delivered -> read, or failed. */
	status: SendStatus;
	deleted: boolean;
	editedAt: number | null;
	/** Whether the chat was saved when the message arrived; unsaved ones are kept only for sends. */
	saved: boolean;
	idempotencyKey: string | null;
	/** Category of the Business template this message was sent from, for pricing analytics. */
	templateCategory?: 'UTILITY' | 'MARKETING';
}

export type SendStatus = 'accepted' | 'sent' | 'delivered' | 'read' | 'failed';

export interface ChatRecord {
	conversationId: string;
	channel: Channel;
	chatType: 'individual' | 'group';
	name: string;
}

export interface GroupRecord {
	jid: string;
	subject: string;
	participants: { phone: string; admin: boolean }[];
	/** Groups are saved (synced) only when selected; create_group does not select. */
	selected: boolean;
}

/** Provider review outcome (Meta's names; the spec does not show them). */
export type TemplateStatus = 'PENDING' | 'APPROVED' | 'REJECTED';

export interface TemplateRecord {
	id: string;
	name: string;
	language: string;
	category: 'UTILITY' | 'MARKETING';
	body: string;
	bodyExamples: string[];
	header: string | null;
	footer: string | null;
	status: TemplateStatus;
	createdAt: number;
}

export type CampaignState = 'draft' | 'running' | 'paused' | 'cancelled';

export interface CampaignRecipient {
	phoneNumber: string;
	parameters: string[];
	consentSource: string;
	consentAt: string;
}

export interface CampaignRecord {
	id: string;
	name: string;
	templateName: string;
	templateLanguage: string;
	maxMessages: number;
	state: CampaignState;
	recipients: CampaignRecipient[];
	createdAt: number;
	cancelledAt: number | null;
}

export interface FormRecord {
	id: string;
	name: string;
	categories: string[];
	definition: unknown;
	status: 'DRAFT';
	previewUrl: string;
	updatedAt: number;
}

export type FilterMode = 'include' | 'exclude';

export interface FilterEntry {
	phone: string;
	name: string | null;
}

export interface AccountState {
	id: string;
	name: string;
	plan: Plan;
	inboxStorageConsent: boolean;
	channels: Record<Channel, ChannelState>;
	chats: Map<string, ChatRecord>;
	messages: MessageRecord[];
	groups: Map<string, GroupRecord>;
	templates: TemplateRecord[];
	campaigns: Map<string, CampaignRecord>;
	forms: Map<string, FormRecord>;
	filterMode: FilterMode;
	filters: FilterEntry[];
	/** One-to-one numbers that delete_chat with stopSaving told the service to skip. */
	skipped: Set<string>;
	/** Saved contact names, removed with the chat by delete_chat. */
	contactNames: Map<string, string>;
	/** Start of the saved history, reported by get_account_context. */
	historyFrom: number;
}

export type OperationStatus = 'succeeded' | 'failed' | 'pending';

export interface OperationRecord {
	id: string;
	accountId: string;
	tool: string;
	status: OperationStatus;
	result?: unknown;
	error?: { code: string; message: string };
	idempotencyKey: string | null;
	at: number;
}

export interface EffectRecord {
	accountId: string;
	tool: string;
	operationId: string;
	summary: string;
	at: string;
}

export interface RecordedCall {
	tool: string;
	keyName: string;
	idempotencyKey: string | null;
	input: unknown;
	status: number;
	errorCode?: string;
	replayed: boolean;
	at: string;
}
