import { z } from 'zod/v4';
import { defineTool } from '../defineTool';
import { chars, integer } from '../formats';

export const analyzeCampaignCsvTool = defineTool({
	name: 'analyze_campaign_csv',
	displayName: 'Analyze Campaign CSV',
	operation: {
		value: 'analyzeCsv',
		name: 'Analyze CSV',
		action: 'Analyze a recipient CSV',
		summary: 'Check a recipient list for phone format, duplicates and opt-in',
	},
	resource: 'campaign',
	access: 'read',
	channel: 'none',
	simplify: true,
	csvAnalysis: { field: 'csv', maxRows: 3_000 },
	description:
		'Checks up to 3,000 CSV rows for international phone format, duplicates, declared opt-in and ' +
		'candidate countries. The CSV needs columns phone and opt_in; extra columns param_1, param_2, ... ' +
		'are checked against requiredTemplateVariables. Sends nothing; cannot prove that numbers are ' +
		'registered and gives no live price.',
	input: z.strictObject({
		csv: chars(1, 500_000)
			.describe('CSV text with a header row, up to 3,000 rows and 500,000 characters')
			.meta({ examples: ['phone,opt_in,param_1\n4915112345678,yes,Anna'] }),
		requiredTemplateVariables: integer(0, 20)
			.optional()
			.meta({ title: 'Required Template Values' })
			.describe('How many template values (CSV columns <code>param_1</code>, <code>param_2</code>, ...) each row must fill, 0-20'),
	}),
});
