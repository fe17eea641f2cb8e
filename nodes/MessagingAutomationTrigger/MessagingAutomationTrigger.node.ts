import {
	type IExecuteFunctions,
	type IHookFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { EVENTS_SUBTITLE, triggerProperties } from './description';
import { releaseScope } from './hold/heldDeliveries';
import { receiveDelivery } from './receive/receive';
import { checkOwnWebhookUrl } from './activation/ownUrlCheck';
import { claimRun } from './run/runClaim';
import { withRunFiles } from './run/runAttachments';
import { triggerScope } from './receive/scope';
import { TRIGGER_OUTPUTS, triggerOutputCount } from './run/takeoverOutput';
import {
	shareCatchUpSettings,
	shareEndpoint,
	withdrawCatchUpSettings,
} from './catchUp/sharedSettings';
import { endpointExists, registerEndpoint, unregisterEndpoint } from './activation/registration';

export class MessagingAutomationTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Messaging Automation Trigger',
		name: 'messagingAutomationTrigger',
		icon: {
			light: 'file:messagingAutomationTrigger.svg',
			dark: 'file:messagingAutomationTrigger.dark.svg',
		},
		group: ['trigger'],
		// 1.1 behaves as 1. n8n 2.x evaluates an expression for every delivery to a version-1 webhook
		// node (its Webhook node's old binary-data option), in a fresh sandbox: milliseconds each.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: EVENTS_SUBTITLE,
		description: 'Starts the workflow when a message, a status change or a channel change arrives',
		defaults: { name: 'Messaging Automation Trigger' },
		inputs: [],
		outputs: TRIGGER_OUTPUTS,
		credentials: [{ name: 'messagingAutomationApi', required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// When n8n answers a run's delivery itself, it sends the handler's `webhookResponse` only if
				// this is empty: left out, n8n sends the literal text "firstEntryJson".
				responseData: '',
				path: 'webhook',
			},
		],
		properties: triggerProperties,
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				await checkOwnWebhookUrl(this);
				// n8n calls it at every activation; the Catch-Up poll waits for it (sharedSettings.ts).
				if (this.getMode() !== 'manual') await shareCatchUpSettings(this);
				const exists = await endpointExists(this);
				if (exists) shareEndpoint(this);
				return exists;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				const created = await registerEndpoint(this);
				if (created) shareEndpoint(this);
				return created;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				// A test webhook's static data is its own copy, never saved: only production's counts.
				withdrawCatchUpSettings(this);
				const held = releaseScope(triggerScope(this, this.getNodeWebhookUrl('default') ?? ''));
				return await unregisterEndpoint(this, held);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveDelivery(this);
	}

	/**
	 * n8n's first step of each run this trigger starts, once n8n has recorded it: the run claim
	 * (runClaim.ts), then the files of what it passes on (runAttachments.ts).
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await withRunFiles(
			this,
			await claimRun(this, { trigger: this.getNode().id, polled: false }, triggerOutputCount(this)),
		);
	}
}
