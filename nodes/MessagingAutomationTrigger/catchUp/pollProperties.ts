import type { INodeProperties } from 'n8n-workflow';

/**
 * The Catch-Up node's fields: only its notice. Everything else (grouping, Filters, Human Takeover,
 * Max Age) is the trigger's (sharedSettings.ts); n8n adds Poll Times itself (`polling: true`).
 */
export const catchUpPollProperties: INodeProperties[] = [
	{
		displayName:
			"Runs the messages the Messaging Automation Trigger in this workflow never received: a person's last message whose event the service lost, and messages written while the workflow was inactive. With Pass Answers to Send and Wait on, it also passes a reply n8n never passed on (lost, or n8n stopped while passing it) to its question, while that still waits. Choose the trigger's credential above, and connect this node and the trigger to the same next node. The trigger needs Message Received, Group Quick Messages and Catch Up Missed Messages on; this node follows its settings (Filters, Human Takeover, Max Age). At each Poll Time it checks the chats quiet for 3 minutes or more. A message runs once, whichever of the two nodes finds it.",
		name: 'notice',
		type: 'notice',
		default: '',
	},
];
