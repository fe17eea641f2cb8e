import type { INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import { LEAVE_TO_N8N_WITHIN_MS } from '../shared/conversation/deliveryTiming';
import { monotonicNow } from '../shared/monotonic';
import type { EventEnvelope } from '../shared/webhooks/events';
import type { DeliveryContext } from './deliveryContext';
import { turnItemJson } from './output';
import { hasAttachment, withAttachments } from './runAttachments';
import { withCarrier } from './runClaim';
import type { TriggerSettings } from './settings';
import { takeoverWorkflowData } from './takeoverOutput';
import type { Turn } from './turn';

/**
 * The run's workflow data for n8n, which answers the delivery once it recorded the run
 * (deliveryReply.ts). Recording takes seconds on a loaded n8n and a download may take longer than
 * the service waits, so a delivery short of time (unless a retry: deliveryContext.ts) or with a
 * file to download is answered here first.
 */
export async function handOver(
	context: IWebhookFunctions,
	envelope: EventEnvelope,
	settings: TriggerSettings,
	delivery: DeliveryContext,
	turn: Extract<Turn, { run: true }>,
): Promise<INodeExecutionData[][]> {
	const waitedMs = monotonicNow() - delivery.sentLocallyAt;
	const item: INodeExecutionData = { json: turnItemJson(envelope, turn) };
	const answeredFirst =
		(waitedMs > LEAVE_TO_N8N_WITHIN_MS && !delivery.retried) ||
		(settings.downloadAttachments && hasAttachment(envelope, item));
	if (answeredFirst) delivery.reply.received();
	if (settings.downloadAttachments)
		await withAttachments(context, envelope, item, settings.binaryPropertyName);
	return withCarrier(
		takeoverWorkflowData(item, settings.turn.takeover !== undefined, turn.takeover),
	);
}
