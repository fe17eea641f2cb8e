import { z } from 'zod/v4';
import { crossFieldRules, oneOf } from '../crossField';
import { defineTool } from '../defineTool';
import { chars, idempotencyKey } from '../formats';

/* Request shape not shown in the spec: a lookup by either identifier the caller may hold. */
export const getOperationTool = defineTool({
	name: 'get_operation',
	displayName: 'Get Operation',
	resource: 'other',
	access: 'read',
	channel: 'none',
	description:
		'Inspects the outcome of a write whose result was uncertain (error outcome_unknown, or a timeout): ' +
		'succeeded, failed or pending, with its result or error. Give operation_id (from the error) or ' +
		'the idempotencyKey used for the write. Check this before retrying; never resend with a new key.',
	input: z
		.strictObject({
			operation_id: chars(1, 250)
				.optional()
				.describe('Operation id from an outcome_unknown error or a write result')
				.meta({ examples: ['op_01HZX3K9Q2'] }),
			idempotencyKey: idempotencyKey
				.optional()
				.describe('Idempotency key the uncertain write used'),
		})
		.check(crossFieldRules(oneOf(['operation_id', 'idempotencyKey'], { exclusive: false }))),
});
