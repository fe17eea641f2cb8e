import { z } from 'zod/v4';
import { defineTool } from '../defineTool';

export const getBusinessAccountTool = defineTool({
	name: 'get_business_account',
	displayName: 'Get Business Account',
	operation: {
		value: 'get',
		name: 'Get',
		action: 'Get the Business account',
		summary: 'The connected Business sender and its sending state',
		default: true,
	},
	resource: 'businessAccount',
	access: 'read',
	channel: 'business',
	simplify: true,
	description:
		'Reports the connected Business sender and its sending state; provider credentials are never ' +
		'shown. Needs an official Business connection. Takes no input.',
	input: z.strictObject({}),
});
