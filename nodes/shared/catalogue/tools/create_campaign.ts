import { defineTool } from '../defineTool';
import { chars, integer, templateLanguage, templateName } from '../formats';
import { writeInput } from '../shapes';

export const createCampaignTool = defineTool({
	name: 'create_campaign',
	displayName: 'Create Campaign',
	resource: 'campaign',
	access: 'write',
	channel: 'business',
	description:
		'Saves a Business campaign draft from an approved text template. Creates no sends; add recipients ' +
		'with add_campaign_recipients. maxMessages is a hard cap on attempted messages, not a spending cap.',
	input: writeInput({
		name: chars(1, 120)
			.describe('Campaign name, 1-120 characters')
			.meta({ examples: ['October newsletter'] }),
		templateName: templateName.describe(
			'Approved template: lowercase letters, digits and underscores, 1-512',
		),
		templateLanguage,
		maxMessages: integer(1, 1_000_000).describe('Hard cap on attempted messages, 1-1,000,000'),
	}),
});
