import { emitMessage, emitStatus } from '../events';
import { digits, findMessage, passesFilters, storeMessage } from '../inbox';
import type { AccountState, Channel, MessageRecord } from '../model';
import { DEMO } from '../seed';
import { type ToolContext, type ToolHandler, invalidInput, str, toolError } from './context';
import { resolveSendChannel, resolveTarget, windowClosesAt, type Target } from './target';
import { findTemplate, renderTemplate, templateVariableCount } from './templateText';

/** edit_message is allowed "only for a short time after sending": the sandbox allows 15 minutes. */
export const EDIT_WINDOW_MS = 15 * 60_000;

function requireRecipientAllowed(account: AccountState, target: Target): void {
	if (target.phone !== null && !passesFilters(account, target.phone)) {
		throw toolError(
			`The number ${target.phone} does not pass the workspace number filters, so it cannot be messaged.`,
		);
	}
}

/** QR sends share the number's 5/min and 50/day budget: checked before, counted after the effect. */
function withQrSend<T>(ctx: ToolContext, effect: () => T): T {
	const phone = ctx.account.channels.qr.phone;
	ctx.limits.checkQrSend(phone);
	const result = effect();
	ctx.limits.countQrSend(phone);
	return result;
}

function templateText(ctx: ToolContext): Partial<MessageRecord> {
	const name = str(ctx.input, 'templateName') ?? '';
	const language = str(ctx.input, 'templateLanguage') ?? '';
	const template = findTemplate(ctx.account, name, language);
	if (!template)
		throw toolError(`No Business template ${name} (${language}) exists on this account.`);
	if (template.status !== 'APPROVED') {
		throw toolError(
			`Template ${name} (${language}) is ${template.status}; only approved templates can be sent.`,
		);
	}
	const parameters = (ctx.input.templateParameters as string[] | undefined) ?? [];
	const expected = templateVariableCount(template.body);
	if (parameters.length !== expected) {
		throw invalidInput(
			'templateParameters',
			`must have ${expected} values for template ${name} (got ${parameters.length})`,
		);
	}
	return {
		type: 'template',
		text: renderTemplate(template.body, parameters),
		templateCategory: template.category,
	};
}

function freeFormText(ctx: ToolContext, channel: Channel, target: Target): Partial<MessageRecord> {
	if (channel === 'business') {
		const closes = windowClosesAt(ctx.account, target.conversationId);
		if (closes === null || closes <= ctx.state.clock.now()) {
			throw toolError(
				'Free-form Business messages need an incoming customer message within the last 24 hours; send an approved template instead.',
			);
		}
	}
	return { type: 'text', text: str(ctx.input, 'text') ?? '' };
}

function ownMessage(
	ctx: ToolContext,
	channel: Channel,
	target: Target,
	content: Partial<MessageRecord>,
): MessageRecord {
	const group =
		target.chatType === 'group' ? ctx.account.groups.get(target.conversationId) : undefined;
	return storeMessage(ctx.state, ctx.account, {
		conversationId: target.conversationId,
		channel,
		chatType: target.chatType,
		group: group ? { id: group.jid, name: group.subject } : null,
		from: { phone: ctx.account.channels[channel].phone, name: ctx.account.name },
		fromMe: true,
		to: target.phone,
		type: 'text',
		text: '',
		quotedMessageId: null,
		attachment: null,
		timestamp: ctx.state.clock.now(),
		// QR hands the message to the network at once but reports no delivery ticks.
		status: channel === 'qr' ? 'sent' : 'accepted',
		idempotencyKey: ctx.idempotencyKey,
		...content,
	});
}

function accepted(message: MessageRecord): Record<string, unknown> {
	return {
		message_id: message.id,
		status: 'accepted',
		channel: message.channel,
		conversation_id: message.conversationId,
	};
}

const sendMessage: ToolHandler = (ctx) => {
	const channel = resolveSendChannel(ctx.account, ctx.input);
	if (channel === 'qr' && ctx.input.templateName !== undefined) {
		throw invalidInput(
			'channel',
			"must be 'business' when templateName is given (templates always use Business)",
		);
	}
	const target = resolveTarget(ctx.account, channel, ctx.input);
	requireRecipientAllowed(ctx.account, target);
	const content =
		ctx.input.templateName !== undefined ? templateText(ctx) : freeFormText(ctx, channel, target);
	const replyTo = str(ctx.input, 'replyToMessageId');
	if (replyTo !== undefined) {
		const quoted = findMessage(ctx.account, replyTo);
		if (!quoted || quoted.conversationId !== target.conversationId) {
			throw toolError(`Message ${replyTo} is not in conversation ${target.conversationId}.`);
		}
	}
	const send = () =>
		ownMessage(ctx, channel, target, { ...content, quotedMessageId: replyTo ?? null });
	const message = channel === 'qr' ? withQrSend(ctx, send) : send();
	emitMessage(ctx.events, message);
	if (channel === 'business' && target.phone === DEMO.unregisteredPhone)
		undeliverable(ctx, message);
	return accepted(message);
};

/** The provider's answer for a number nobody uses (its code and title as Business providers word it). */
function undeliverable(ctx: ToolContext, message: MessageRecord): void {
	message.status = 'failed';
	emitStatus(ctx.events, ctx.state, message, [{ code: '131026', title: 'Message undeliverable' }]);
}

/** Edit and delete act on messages the QR account itself sent. */
function ownQrMessage(ctx: ToolContext, id: string): MessageRecord {
	const message = findMessage(ctx.account, id);
	if (!message || !message.fromMe || message.channel !== 'qr') {
		throw toolError(`Message ${id} is not a message sent from the QR account.`);
	}
	if (message.deleted) throw toolError(`Message ${id} was deleted for everyone.`);
	return message;
}

const editMessage: ToolHandler = (ctx) => {
	const message = ownQrMessage(ctx, str(ctx.input, 'targetMessageId') ?? '');
	if (message.type !== 'text')
		throw toolError(`Only text messages can be edited; ${message.id} is ${message.type}.`);
	if (ctx.state.clock.now() - message.timestamp > EDIT_WINDOW_MS) {
		throw toolError('Messages can be edited only within 15 minutes of sending.');
	}
	withQrSend(ctx, () => {
		message.text = str(ctx.input, 'text') ?? '';
		message.editedAt = ctx.state.clock.now();
	});
	return { message_id: message.id, edited: true, text: message.text };
};

const deleteMessage: ToolHandler = (ctx) => {
	const message = ownQrMessage(ctx, str(ctx.input, 'targetMessageId') ?? '');
	withQrSend(ctx, () => {
		message.deleted = true;
		message.text = '';
		message.attachment = null;
	});
	return { message_id: message.id, deleted: true };
};

const forwardMessage: ToolHandler = (ctx) => {
	const sourceId = str(ctx.input, 'sourceMessageId') ?? '';
	const source = findMessage(ctx.account, sourceId);
	if (
		!source ||
		!source.saved ||
		source.deleted ||
		source.channel !== 'qr' ||
		source.chatType !== 'individual'
	) {
		throw toolError(`Message ${sourceId} is not a stored one-to-one QR message.`);
	}
	const phone = digits(str(ctx.input, 'phoneNumber') ?? '');
	const target: Target = {
		conversationId: `${phone}@s.whatsapp.net`,
		chatType: 'individual',
		phone,
	};
	requireRecipientAllowed(ctx.account, target);
	const message = withQrSend(ctx, () =>
		ownMessage(ctx, 'qr', target, {
			type: source.type,
			text: source.text,
			attachment: source.attachment ? { ...source.attachment } : null,
		}),
	);
	emitMessage(ctx.events, message);
	return { ...accepted(message), source_message_id: source.id };
};

export const messageHandlers: Record<string, ToolHandler> = {
	send_message: sendMessage,
	edit_message: editMessage,
	delete_message: deleteMessage,
	forward_message: forwardMessage,
};
