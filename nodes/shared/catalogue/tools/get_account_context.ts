import { z } from 'zod/v4';
import { defineTool } from '../defineTool';

export const getAccountContextTool = defineTool({
	name: 'get_account_context',
	displayName: 'Get Account Context',
	operation: {
		value: 'getCapabilities',
		name: 'Get Capabilities',
		action: 'Get account capabilities',
		summary: 'Readiness, saved history range and what the account may read and send',
	},
	resource: 'account',
	access: 'read',
	channel: 'none',
	simplify: true,
	description:
		'Reports the connected account, whether it is ready, the available history range and the read, ' +
		'prepare and send capabilities granted to this key. Takes no input. A good first call.',
	input: z.strictObject({}),
});
