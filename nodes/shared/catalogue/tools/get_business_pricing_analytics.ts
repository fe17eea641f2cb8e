import { z } from 'zod/v4';
import { defineTool } from '../defineTool';
import { integer } from '../formats';
import { assumedReadTool } from '../shapes';

export const getBusinessPricingAnalyticsTool = defineTool({
	name: 'get_business_pricing_analytics',
	displayName: 'Get Business Pricing Analytics',
	operation: {
		value: 'getPricingAnalytics',
		name: 'Get Pricing Analytics',
		action: 'Get pricing analytics',
		summary: 'Delivered volume and estimated cost per category, up to 90 days',
	},
	resource: 'businessAccount',
	...assumedReadTool,
	channel: 'business',
	simplify: true,
	description:
		'Reads delivered Business volume and estimated cost per pricing category for up to 90 days; ' +
		'not an invoice.',
	input: z.strictObject({
		days: integer(1, 90).optional().meta({ title: 'Days' }).describe('How many days back, 1-90'),
	}),
});
