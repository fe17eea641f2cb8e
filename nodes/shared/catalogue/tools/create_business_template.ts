import { z } from 'zod/v4';
import { defineTool } from '../defineTool';
import { chars, list, templateLanguage, templateName } from '../formats';
import { writeInput } from '../shapes';

export const createBusinessTemplateTool = defineTool({
	name: 'create_business_template',
	displayName: 'Create Business Template',
	operation: {
		value: 'create',
		name: 'Create',
		action: 'Create a template',
		summary: "Submit a text template for the provider's review",
		default: true,
	},
	resource: 'businessTemplate',
	access: 'write',
	channel: 'business',
	description:
		'Submits a text-only message template for provider review on the connected Business account. ' +
		'The provider decides the final category and whether it is approved; submission is not approval. ' +
		'Body variables are written {{1}}, {{2}}, ...; give one bodyExamples value per variable, in order.',
	input: writeInput({
		name: templateName
			.meta({ title: 'Name' })
			.describe('Template name: lowercase letters, digits and underscores, 1-512'),
		language: templateLanguage,
		category: z
			.enum(['UTILITY', 'MARKETING'])
			.describe('Requested category; the provider may change it'),
		body: chars(1, 1024)
			.describe('Body text, 1-1024 characters, variables as {{1}}, {{2}}, ...')
			.meta({ examples: ['Hi {{1}}, your order {{2}} has shipped.'] }),
		bodyExamples: list(chars(1, 1024), 0, 20)
			.optional()
			.describe(
				'Sample value for each numbered variable of the body, in order; up to 20, each 1-1024 characters',
			),
		header: chars(1, 60).optional().describe('Header text, 1-60 characters'),
		footer: chars(1, 60).optional().describe('Footer text, 1-60 characters'),
	}),
});
