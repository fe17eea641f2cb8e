import { z } from 'zod/v4';
import { defineTool } from '../defineTool';
import { templateLanguage, templateName } from '../formats';
import { assumedReadTool } from '../shapes';

export const getBusinessTemplateTool = defineTool({
	name: 'get_business_template',
	displayName: 'Get Business Template',
	operation: {
		value: 'get',
		name: 'Get',
		action: 'Get a template',
		summary: 'Read a template with its review status',
	},
	resource: 'businessTemplate',
	...assumedReadTool,
	channel: 'business',
	description:
		'Reads one Business template with its review status and body. Give the language when the ' +
		'name exists in several.',
	input: z.strictObject({
		name: templateName
			.meta({ title: 'Template Name' })
			.describe('Name of the template: lowercase letters, digits and underscores'),
		language: templateLanguage.optional(),
	}),
});
