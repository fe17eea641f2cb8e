import { z } from 'zod/v4';
import { defineTool } from '../defineTool';
import { integer } from '../formats';

export const getBusinessMessagingAnalyticsTool = defineTool({
	name: 'get_business_messaging_analytics',
	displayName: 'Get Business Messaging Analytics',
	operation: {
		value: 'getAnalytics',
		name: 'Get Messaging Analytics',
		action: 'Get messaging analytics',
		summary: 'Sent and delivered message counts for up to 90 days',
	},
	resource: 'businessAccount',
	access: 'read',
	channel: 'business',
	simplify: true,
	description:
		'Reads sent and delivered message counts of the Business number for up to 90 days. Not pricing, ' +
		'and not a per-recipient delivery confirmation.',
	input: z.strictObject({
		days: integer(1, 90).optional().describe('How many recent days to cover, 1-90'),
	}),
});
