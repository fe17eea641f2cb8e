import { z } from 'zod/v4';
import { defineTool } from '../defineTool';

export const getBusinessHealthTool = defineTool({
	name: 'get_business_health',
	displayName: 'Get Business Health',
	operation: {
		value: 'getHealth',
		name: 'Get Health',
		action: 'Get Business account health',
		summary: 'Reviews, verification, quality rating and limits, with suggested fixes',
	},
	resource: 'businessAccount',
	access: 'read',
	channel: 'business',
	simplify: true,
	description:
		'Reads account review and business verification status, phone quality and messaging limits, and ' +
		'health entities with their sending availability, errors and suggested fixes. Takes no input.',
	input: z.strictObject({}),
});
