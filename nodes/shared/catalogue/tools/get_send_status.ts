import { z } from 'zod/v4';
import { crossFieldRules, oneOf } from '../crossField';
import { defineTool } from '../defineTool';
import { lookUpByLayout } from '../shapes';
import { idempotencyKey, messageId } from '../formats';

/* Request shape not shown in the spec: a lookup by either identifier the caller may hold. */
export const getSendStatusTool = defineTool({
	name: 'get_send_status',
	displayName: 'Get Send Status',
	operation: {
		value: 'getStatus',
		name: 'Get Status',
		action: 'Get the status of a message',
		summary: 'Whether a sent message was accepted, sent, delivered, read or failed',
	},
	resource: 'message',
	layout: lookUpByLayout('message_id', 'Message ID', 'As Send returned it'),
	access: 'read',
	channel: 'none',
	answersLookup: 'sendStatus',
	description:
		'Reports the status of one send: accepted, sent, delivered, read, failed or not_found. Give ' +
		'message_id (from send_message) or the idempotencyKey the send used, e.g. after outcome_unknown ' +
		'or a timeout. QR sends report no delivery ticks, so accepted or sent is as far as they go.',
	input: z
		.strictObject({
			message_id: messageId.optional().describe('The message ID that Send returned'),
			idempotencyKey: idempotencyKey.optional().meta({ title: 'Idempotency Key' }).describe('The idempotency key the send used'),
		})
		.check(crossFieldRules(oneOf(['message_id', 'idempotencyKey'], { exclusive: false }))),
});
