import type { INodeProperties } from 'n8n-workflow';

/**
 * The Catch-Up node's fields: only its notice. Everything else (grouping, Filters, Human Takeover,
 * Max Age) is the trigger's (sharedSettings.ts); n8n adds Poll Times itself (`polling: true`).
 */
export const catchUpPollProperties: INodeProperties[] = [
	{
		displayName:
			"Add it beside a Messaging Automation Trigger that has Group Quick Messages on, give it the trigger's credential, and connect both to the same next node. Every poll it runs the messages the trigger never received: a person's last message whose event the service lost, and those written while the workflow was inactive. It waits until a chat has been quiet 3 minutes, and follows the trigger's settings: Filters, Human Takeover, Max Age. Each message runs once.",
		name: 'notice',
		type: 'notice',
		default: '',
	},
];
