import type { INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import type { EventEnvelope } from '../../shared/webhooks/events';
import type { DeliveryContext } from '../receive/deliveryContext';
import { caughtUpItems } from './caughtUp';
import { turnItemJson } from './output';
import { hasAttachment, withAttachments } from './runAttachments';
import { withCarrier } from './runClaim';
import type { TriggerSettings } from '../settings';
import { takeoverWorkflowData } from './takeoverOutput';
import type { Turn } from '../hold/turn';

/**
 * The run's workflow data for n8n, which answers the delivery once it recorded the run
 * (deliveryReply.ts): a stop before that leaves the run to the service's retry, never lost. An
 * answer that comes after the service's ten seconds costs a retry, whose copy the run claim passes
 * nothing on (runClaim.ts). Only a delivery with a file to download is answered here first: a
 * download may take longer than the service waits, every retry would download it again.
 */
export async function handOver(
	context: IWebhookFunctions,
	envelope: EventEnvelope,
	settings: TriggerSettings,
	delivery: DeliveryContext,
	turn: Extract<Turn, { run: true }>,
): Promise<INodeExecutionData[][]> {
	const item: INodeExecutionData = { json: turnItemJson(envelope, turn) };
	if (settings.downloadAttachments && hasAttachment(envelope, item)) {
		delivery.reply.received();
		await withAttachments(context, envelope, item, settings.binaryPropertyName);
	}
	const takeover = settings.turn.takeover !== undefined;
	// Bursts the bot never saw come first: they were written before this one.
	const runs = [
		...caughtUpItems(context, envelope, settings, delivery, turn),
		{ item, takeover: turn.takeover },
	];
	const outputs = runs.map((run) => takeoverWorkflowData(run.item, takeover, run.takeover));
	return withCarrier(outputs[0].map((_, index) => outputs.flatMap((output) => output[index])));
}
