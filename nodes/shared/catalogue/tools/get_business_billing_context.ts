import { z } from 'zod/v4';
import { defineTool } from '../defineTool';

export const getBusinessBillingContextTool = defineTool({
	name: 'get_business_billing_context',
	displayName: 'Get Business Billing Context',
	operation: {
		value: 'getBilling',
		name: 'Get Billing',
		action: 'Get Business billing details',
		summary: "Billing currency and the provider's pricing reference",
	},
	resource: 'businessAccount',
	access: 'read',
	channel: 'business',
	description:
		"Reads the billing currency and the provider's pricing reference. Not a live quote; use " +
		'estimate_business_price for an estimate. Takes no input.',
	input: z.strictObject({}),
});
