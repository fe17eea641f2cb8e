import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { WebhookEndpoints } from '../../../shared/client/webhookEndpoints';
import { forEachItem } from '../itemLoop';
import type { RunContext } from '../runContext';

/*
 * Webhook endpoint management (scope messenger.webhooks:manage). Lists give one item per
 * endpoint or delivery; everything else one item per input item.
 */

type Handler = (
	webhooks: WebhookEndpoints,
	parameter: (name: string, fallback?: unknown) => unknown,
	idempotencyKey: () => string,
) => Promise<unknown>;

const id = (parameter: (name: string) => unknown) => String(parameter('webhookId'));

const HANDLERS: Record<string, Handler> = {
	register: async (webhooks, parameter, key) =>
		(
			await webhooks.create(
				{ url: String(parameter('url')), event_types: parameter('eventTypes') as string[] },
				key(),
			)
		).data,
	list: async (webhooks) => (await webhooks.list()).data.webhooks,
	get: async (webhooks, parameter) => (await webhooks.get(id(parameter))).data,
	update: async (webhooks, parameter) => {
		const fields = parameter('updateFields', {}) as IDataObject;
		const changes: { url?: string; event_types?: string[] } = {};
		if (typeof fields.url === 'string' && fields.url !== '') changes.url = fields.url;
		if (Array.isArray(fields.eventTypes)) changes.event_types = fields.eventTypes as string[];
		return (await webhooks.update(id(parameter), changes)).data;
	},
	pause: async (webhooks, parameter) => (await webhooks.pause(id(parameter))).data,
	resume: async (webhooks, parameter) => (await webhooks.resume(id(parameter))).data,
	delete: async (webhooks, parameter) => (await webhooks.delete(id(parameter))).data,
	rotateSecret: async (webhooks, parameter) => (await webhooks.rotateSecret(id(parameter))).data,
	listDeliveries: async (webhooks, parameter) =>
		(await webhooks.listDeliveries(id(parameter))).data.deliveries,
	resendDelivery: async (webhooks, parameter) =>
		(await webhooks.resendDelivery(id(parameter), String(parameter('deliveryId')))).data,
};

export async function executeWebhook(
	context: IExecuteFunctions,
	run: RunContext,
	operation: string,
): Promise<INodeExecutionData[]> {
	const handler = HANDLERS[operation];
	return await forEachItem(context, async (itemIndex) => {
		if (!handler) throw new Error(`The webhook operation "${operation}" is not supported`);
		const parameter = (name: string, fallback?: unknown) =>
			context.getNodeParameter(name, itemIndex, fallback);
		const result = await handler(run.client.webhooks, parameter, () =>
			run.keys.choose(context, itemIndex),
		);
		const list = Array.isArray(result) ? result : [result];
		return list.map((json) => ({ json: json as IDataObject, pairedItem: { item: itemIndex } }));
	});
}
