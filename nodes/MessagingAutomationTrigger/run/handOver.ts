import type { INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import type { EventEnvelope } from '../../shared/webhooks/events';
import type { DeliveryContext } from '../receive/deliveryContext';
import { caughtUpItems } from './caughtUp';
import { turnItemJson } from './output';
import { withCarrier } from './runClaim';
import type { TriggerSettings } from '../settings';
import { takeoverWorkflowData } from './takeoverOutput';
import type { Turn } from '../hold/turn';

/**
 * The run's workflow data for n8n, which answers the delivery once it recorded the run
 * (deliveryReply.ts): a stop before that leaves the run to the service's retry, never lost. An
 * answer that comes after the service's ten seconds costs a retry, whose copy the run claim passes
 * nothing on (runClaim.ts). Files are downloaded in the run's first step (runAttachments.ts).
 */
export async function handOver(
	context: IWebhookFunctions,
	envelope: EventEnvelope,
	settings: TriggerSettings,
	delivery: DeliveryContext,
	turn: Extract<Turn, { run: true }>,
): Promise<INodeExecutionData[][]> {
	const item: INodeExecutionData = { json: turnItemJson(envelope, turn) };
	const takeover = settings.turn.takeover !== undefined;
	// The delivered burst is the run's first item, whatever it catches up: a node that acts on the
	// first item only (Send and Wait, Execute Once, .first()) still answers what the person just wrote.
	const runs = [
		{ item, takeover: turn.takeover },
		...caughtUpItems(context, envelope, settings, delivery, turn),
	];
	const outputs = runs.map((run) => takeoverWorkflowData(run.item, takeover, run.takeover));
	return withCarrier(outputs[0].map((_, index) => outputs.flatMap((output) => output[index])));
}
