import type { INodeProperties } from 'n8n-workflow';

/**
 * The Catch-Up node's fields: only its notice. Everything else (grouping, Filters, Human Takeover,
 * Max Age) is the trigger's (sharedSettings.ts); n8n adds Poll Times itself (`polling: true`).
 */
export const catchUpPollProperties: INodeProperties[] = [
	{
		displayName:
			"Runs the messages the Messaging Automation Trigger in this workflow never received: a person's last message whose event the service lost, and messages written while the workflow was inactive. Set it up: keep it in the trigger's workflow, choose the trigger's credential above, and connect both to the same next node. The trigger needs Message Received, Group Quick Messages and Catch Up Missed Messages on; this node follows its settings (Filters, Human Takeover, Max Age). At each Poll Time it runs the chats nobody has written in for 3 minutes. A message runs once, whichever of the two nodes finds it.",
		name: 'notice',
		type: 'notice',
		default: '',
	},
];
