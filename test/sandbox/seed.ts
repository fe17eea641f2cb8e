import { ensureChat, storeMessage } from './inbox';
import { ALL_SCOPES, DEFAULT_SCOPES, SCOPES, type AccountState, type Plan } from './model';
import type { SandboxState } from './state';

export const PERSONAS = [
	'owner',
	'member',
	'readOnly',
	'noWebhooks',
	'lowPlan',
	'noConsent',
	'revoked',
] as const;
export type Persona = (typeof PERSONAS)[number];

export const DEMO = {
	accountId: 'acc_demo',
	qrPhone: '15550100001',
	businessPhone: '15550100002',
	alice: { phone: '4915112345678', name: 'Alice Example' },
	bob: { phone: '447700900123', name: 'Bob Example' },
	carol: { phone: '5511987654321', name: 'Carol Example' },
	dave: { phone: '919876543210', name: 'Dave Example' },
	/** Saved group where the linked number is admin. */
	adminGroup: { jid: '120363025246125486@g.us', name: 'Support team' },
	/** Saved group where the linked number is a plain member. */
	memberGroup: { jid: '120363041234567890@g.us', name: 'Neighbours' },
	excludedPhone: '15550199999',
	/**
	 * A number with no account on the network. check_recipient_send_options does not prove
	 * registration (spec), so a Business template to it is accepted, then its message.status is failed.
	 */
	unregisteredPhone: '4915700000000',
} as const;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function newAccount(
	state: SandboxState,
	id: string,
	name: string,
	plan: Plan,
	consent: boolean,
): AccountState {
	const account: AccountState = {
		id,
		name,
		plan,
		inboxStorageConsent: consent,
		channels: {
			qr: { channel: 'qr', phone: DEMO.qrPhone, connected: true, silentDrop: false },
			business: {
				channel: 'business',
				phone: DEMO.businessPhone,
				connected: true,
				silentDrop: false,
			},
		},
		chats: new Map(),
		messages: [],
		groups: new Map(),
		templates: [],
		campaigns: new Map(),
		forms: new Map(),
		filterMode: 'exclude',
		filters: [{ phone: DEMO.excludedPhone, name: 'Blocked caller' }],
		skipped: new Set(),
		contactNames: new Map(),
		historyFrom: state.clock.now() - 90 * DAY,
	};
	state.accounts.set(id, account);
	return account;
}

function seedInbox(state: SandboxState, account: AccountState): void {
	const now = state.clock.now();
	const me = { phone: DEMO.qrPhone, name: account.name };
	account.groups.set(DEMO.adminGroup.jid, {
		jid: DEMO.adminGroup.jid,
		subject: DEMO.adminGroup.name,
		participants: [
			{ phone: DEMO.qrPhone, admin: true },
			{ phone: DEMO.alice.phone, admin: true },
			{ phone: DEMO.bob.phone, admin: false },
		],
		selected: true,
	});
	account.groups.set(DEMO.memberGroup.jid, {
		jid: DEMO.memberGroup.jid,
		subject: DEMO.memberGroup.name,
		participants: [
			{ phone: DEMO.bob.phone, admin: true },
			{ phone: DEMO.qrPhone, admin: false },
		],
		selected: true,
	});
	for (const group of [DEMO.adminGroup, DEMO.memberGroup]) {
		ensureChat(account, {
			conversationId: group.jid,
			channel: 'qr',
			chatType: 'group',
			name: group.name,
		});
	}
	const aliceChat = `${DEMO.alice.phone}@s.whatsapp.net`;
	const common = {
		quotedMessageId: null,
		attachment: null,
		to: null,
		group: null,
		idempotencyKey: null,
	} as const;
	const one = { channel: 'qr', chatType: 'individual' } as const;
	storeMessage(state, account, {
		...common,
		...one,
		conversationId: aliceChat,
		from: { ...DEMO.alice },
		fromMe: false,
		type: 'text',
		text: 'Hi! Has my order 1042 shipped yet?',
		timestamp: now - 50 * MINUTE,
	});
	storeMessage(state, account, {
		...common,
		...one,
		conversationId: aliceChat,
		from: { ...DEMO.alice },
		fromMe: false,
		type: 'image',
		text: 'Here is the receipt',
		timestamp: now - 45 * MINUTE,
		attachment: fileAttachment('receipt-1042.png', 'image/png', 'PNG receipt 1042'),
	});
	storeMessage(state, account, {
		...common,
		...one,
		conversationId: aliceChat,
		from: me,
		fromMe: true,
		to: DEMO.alice.phone,
		type: 'text',
		text: 'Thanks Alice, it left the warehouse this morning.',
		timestamp: now - 40 * MINUTE,
		status: 'sent',
	});
	storeMessage(state, account, {
		...common,
		...one,
		conversationId: `${DEMO.bob.phone}@s.whatsapp.net`,
		from: { ...DEMO.bob },
		fromMe: false,
		type: 'document',
		text: 'Invoice attached',
		timestamp: now - 3 * HOUR,
		attachment: fileAttachment('invoice-77.pdf', 'application/pdf', '%PDF-1.4 invoice 77'),
	});
	storeMessage(state, account, {
		...common,
		channel: 'qr',
		chatType: 'group',
		conversationId: DEMO.adminGroup.jid,
		group: { id: DEMO.adminGroup.jid, name: DEMO.adminGroup.name },
		from: { ...DEMO.bob },
		fromMe: false,
		type: 'text',
		text: 'Can someone check ticket 88?',
		timestamp: now - 2 * HOUR,
	});
	storeMessage(state, account, {
		...common,
		channel: 'qr',
		chatType: 'group',
		conversationId: DEMO.memberGroup.jid,
		group: { id: DEMO.memberGroup.jid, name: DEMO.memberGroup.name },
		from: { ...DEMO.bob },
		fromMe: false,
		type: 'text',
		text: 'Street party on Saturday',
		timestamp: now - 5 * HOUR,
	});
	const business = { channel: 'business', chatType: 'individual' } as const;
	storeMessage(state, account, {
		...common,
		...business,
		conversationId: DEMO.carol.phone,
		from: { ...DEMO.carol },
		fromMe: false,
		type: 'text',
		text: 'Do you deliver on Sundays?',
		timestamp: now - 2 * HOUR,
	});
	storeMessage(state, account, {
		...common,
		...business,
		conversationId: DEMO.carol.phone,
		from: { ...DEMO.carol },
		fromMe: false,
		type: 'document',
		text: 'My address',
		timestamp: now - 110 * MINUTE,
		attachment: {
			...fileAttachment('address.pdf', 'application/pdf', 'address'),
			downloadAvailable: false,
		},
	});
	storeMessage(state, account, {
		...common,
		...business,
		conversationId: DEMO.dave.phone,
		from: { ...DEMO.dave },
		fromMe: false,
		type: 'text',
		text: 'Please call me back',
		timestamp: now - 2 * DAY,
	});
	account.templates.push(
		{
			id: state.ids.prefixed('tpl_', 8),
			name: 'order_update',
			language: 'en',
			category: 'UTILITY',
			body: 'Hi {{1}}, your order {{2}} is now {{3}}.',
			bodyExamples: ['Alice', '1042', 'shipped'],
			header: 'Order update',
			footer: null,
			status: 'APPROVED',
			createdAt: now - 30 * DAY,
		},
		{
			id: state.ids.prefixed('tpl_', 8),
			name: 'spring_sale',
			language: 'en',
			category: 'MARKETING',
			body: 'Spring sale: {{1}} off everything this week.',
			bodyExamples: ['20%'],
			header: null,
			footer: 'Reply STOP to opt out',
			status: 'PENDING',
			createdAt: now - DAY,
		},
	);
}

export function fileAttachment(fileName: string, mimeType: string, text: string) {
	const content = Buffer.from(text);
	return { fileName, mimeType, size: content.length, content, downloadAvailable: true };
}

/** Builds the demo world and returns one key per test persona. */
export function seedState(
	state: SandboxState,
	secrets: Partial<Record<Persona, string>> = {},
): Record<Persona, string> {
	const demo = newAccount(state, DEMO.accountId, 'Demo Shop', 'scale', true);
	seedInbox(state, demo);
	const starter = newAccount(state, 'acc_starter', 'Starter Shop', 'starter', true);
	const noConsent = newAccount(state, 'acc_noconsent', 'Consentless Shop', 'scale', false);
	seedInbox(state, noConsent);
	const key = (
		persona: Persona,
		accountId: string,
		scopes: readonly string[],
		owner: boolean,
		revoked = false,
	) =>
		state.createKey({
			accountId,
			name: persona,
			scopes: [...scopes],
			owner,
			revoked,
			secret: secrets[persona],
		}).secret;
	return {
		owner: key('owner', demo.id, ALL_SCOPES, true),
		member: key('member', demo.id, DEFAULT_SCOPES, false),
		readOnly: key('readOnly', demo.id, [SCOPES.read], false),
		noWebhooks: key('noWebhooks', demo.id, [SCOPES.read, SCOPES.send, SCOPES.groups], true),
		lowPlan: key('lowPlan', starter.id, ALL_SCOPES, true),
		noConsent: key('noConsent', noConsent.id, ALL_SCOPES, true),
		revoked: key('revoked', demo.id, ALL_SCOPES, true, true),
	};
}
