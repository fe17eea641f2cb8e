import { defineTool } from '../defineTool';
import { chars, integer, templateLanguage, templateName } from '../formats';
import { writeInput } from '../shapes';

export const createCampaignTool = defineTool({
	name: 'create_campaign',
	displayName: 'Create Campaign',
	operation: {
		value: 'create',
		name: 'Create',
		action: 'Create a campaign',
		summary: 'Save a draft campaign from an approved template; sends nothing',
		default: true,
	},
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
		templateName: templateName
			.meta({ title: 'Template Name' })
			.describe('Approved template: lowercase letters, digits and underscores, 1-512'),
		templateLanguage,
		maxMessages: integer(1, 1_000_000)
			.meta({ title: 'Message Limit' })
			.describe('Most messages the campaign may attempt, 1-1,000,000 (not a spending cap)'),
	}),
});
