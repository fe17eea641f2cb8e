import { z } from 'zod/v4';
import { crossFieldRules, oneOf } from '../crossField';
import { defineTool } from '../defineTool';
import { lookUpByLayout } from '../shapes';
import { chars, idempotencyKey } from '../formats';

/* Request shape not shown in the spec: a lookup by either identifier the caller may hold. */
export const getOperationTool = defineTool({
	name: 'get_operation',
	displayName: 'Get Operation',
	operation: {
		value: 'getOperation',
		name: 'Get Operation Outcome',
		action: 'Get the outcome of an operation',
		summary: 'Whether an uncertain write succeeded, failed or is still pending',
	},
	resource: 'other',
	layout: lookUpByLayout('operation_id', 'Operation ID', 'From an uncertain error or a write result'),
	access: 'read',
	channel: 'none',
	answersLookup: 'operation',
	description:
		'Inspects the outcome of a write whose result was uncertain (error outcome_unknown, or a timeout): ' +
		'succeeded, failed or pending, with its result or error. Give operation_id (from the error) or ' +
		'the idempotencyKey used for the write. Check this before retrying; never resend with a new key.',
	input: z
		.strictObject({
			operation_id: chars(1, 250)
				.optional()
				.meta({ title: 'Operation ID' })
				.describe('The operation ID from an uncertain error or from a write result')
				.meta({ examples: ['op_01HZX3K9Q2'] }),
			idempotencyKey: idempotencyKey
				.optional()
				.meta({ title: 'Idempotency Key' })
				.describe('The idempotency key the uncertain write used'),
		})
		.check(crossFieldRules(oneOf(['operation_id', 'idempotencyKey'], { exclusive: false }))),
});
