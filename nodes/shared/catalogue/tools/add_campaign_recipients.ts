import { z } from 'zod/v4';
import { defineTool } from '../defineTool';
import { chars, dateTime, list, sendPhone, templateParameters, uuid } from '../formats';
import { writeInput } from '../shapes';

const recipient = z.strictObject({
	phoneNumber: sendPhone,
	parameters: templateParameters.optional(),
	consentSource: chars(1, 500)
		.meta({ title: 'Consent Source' })
		.describe('Where the recipient declared opt-in, such as a signup form')
		.meta({ examples: ['Website newsletter form'] }),
	consentAt: dateTime
		.meta({ title: 'Consent Date' })
		.describe('When the recipient declared opt-in'),
});

export const addCampaignRecipientsTool = defineTool({
	name: 'add_campaign_recipients',
	displayName: 'Add Campaign Recipients',
	operation: {
		value: 'addRecipients',
		name: 'Add Recipients',
		action: 'Add recipients to a campaign',
		summary: 'Add opted-in recipients to a draft campaign, 500 per call',
	},
	resource: 'campaign',
	access: 'write',
	channel: 'business',
	batch: { field: 'recipients', max: 500, dedupeBy: 'phoneNumber' },
	description:
		'Appends 1-500 recipients to a draft campaign. Numbers are deduplicated across batches; each ' +
		'recipient records the declared opt-in source and time plus its template values. Sends nothing. ' +
		'The declared opt-in is evidence you supply, not proof of consent.',
	input: writeInput({
		campaignId: uuid
			.meta({ title: 'Campaign ID' })
			.describe('The draft campaign, as Create a Campaign returned it'),
		recipients: list(recipient, 1, 500).describe('Recipients to append, 1-500 per call'),
	}),
});
