import type { CampaignRecipient, CampaignRecord } from '../model';
import { type ToolContext, type ToolHandler, str, toolError } from './context';
import { findTemplate } from './templateText';

function campaignView(c: CampaignRecord) {
	return {
		campaign_id: c.id,
		name: c.name,
		state: c.state,
		template_name: c.templateName,
		template_language: c.templateLanguage,
		max_messages: c.maxMessages,
		recipient_count: c.recipients.length,
		created_at: new Date(c.createdAt).toISOString(),
	};
}

function campaign(ctx: ToolContext): CampaignRecord {
	const id = str(ctx.input, 'campaignId') ?? '';
	const record = ctx.account.campaigns.get(id.toLowerCase());
	if (!record) throw toolError(`No campaign ${id} exists on this account.`);
	return record;
}

const createCampaign: ToolHandler = (ctx) => {
	const templateName = str(ctx.input, 'templateName') ?? '';
	const templateLanguage = str(ctx.input, 'templateLanguage') ?? '';
	const template = findTemplate(ctx.account, templateName, templateLanguage);
	if (!template)
		throw toolError(`No Business template ${templateName} (${templateLanguage}) exists.`);
	if (template.status !== 'APPROVED') {
		throw toolError(
			`Campaigns need an approved text template; ${templateName} (${templateLanguage}) is ${template.status}.`,
		);
	}
	const record: CampaignRecord = {
		id: ctx.state.ids.uuid(),
		name: str(ctx.input, 'name') ?? '',
		templateName,
		templateLanguage,
		maxMessages: ctx.input.maxMessages as number,
		state: 'draft',
		recipients: [],
		createdAt: ctx.state.clock.now(),
		cancelledAt: null,
	};
	ctx.account.campaigns.set(record.id, record);
	return campaignView(record);
};

/**
 * Each campaign's numbers, kept next to its recipient list so a call costs what it adds, not what
 * the campaign already holds (a 100,000-recipient upload otherwise slows down call by call).
 * Rebuilt whenever the list changed some other way.
 */
const knownNumbers = new WeakMap<object, Set<string>>();

function numbersOf(recipients: readonly CampaignRecipient[]): Set<string> {
	const cached = knownNumbers.get(recipients);
	if (cached && cached.size === recipients.length) return cached;
	const known = new Set(recipients.map((r) => r.phoneNumber));
	knownNumbers.set(recipients, known);
	return known;
}

/** Numbers are deduplicated within the batch and against every earlier batch. */
const addCampaignRecipients: ToolHandler = (ctx) => {
	const record = campaign(ctx);
	if (record.state !== 'draft') {
		throw toolError(
			`Recipients can be added only to a draft campaign; this one is ${record.state}.`,
		);
	}
	const known = numbersOf(record.recipients);
	const duplicates: string[] = [];
	let added = 0;
	for (const recipient of ctx.input.recipients as CampaignRecipient[]) {
		if (known.has(recipient.phoneNumber)) {
			duplicates.push(recipient.phoneNumber);
			continue;
		}
		known.add(recipient.phoneNumber);
		record.recipients.push({
			phoneNumber: recipient.phoneNumber,
			parameters: [...(recipient.parameters ?? [])],
			consentSource: recipient.consentSource,
			consentAt: recipient.consentAt,
		});
		added++;
	}
	return {
		campaign_id: record.id,
		added,
		duplicates_skipped: duplicates.length,
		duplicate_numbers: duplicates,
		recipient_count: record.recipients.length,
		note: 'Declared opt-in source and time are recorded as given; they do not prove consent.',
	};
};

/** Cancel is final: a cancelled campaign can never run again or take recipients. */
const cancelCampaign: ToolHandler = (ctx) => {
	const record = campaign(ctx);
	if (record.state === 'cancelled')
		throw toolError('The campaign is already cancelled; cancellation is permanent.');
	record.state = 'cancelled';
	record.cancelledAt = ctx.state.clock.now();
	return {
		...campaignView(record),
		cancelled_at: new Date(record.cancelledAt).toISOString(),
		note: 'Recipients not yet messaged will never be sent to; a send already in flight may still finish.',
	};
};

export const campaignHandlers: Record<string, ToolHandler> = {
	create_campaign: createCampaign,
	add_campaign_recipients: addCampaignRecipients,
	cancel_campaign: cancelCampaign,
};
