import type { INodeProperties } from 'n8n-workflow';

/**
 * The Catch-Up node's fields: only its notice. Everything else (grouping, Filters, Human Takeover,
 * Max Age) is the trigger's (sharedSettings.ts); n8n adds Poll Times itself (`polling: true`).
 */
export const catchUpPollProperties: INodeProperties[] = [
	{
		displayName:
			'Runs the messages the Messaging Automation Trigger in this workflow missed: messages that never reached n8n, and messages written while the workflow was unpublished (inactive). With Pass Answers to Send and Wait on, it also passes a missed reply to the "Send a message and wait for response" step still waiting for it.<br /><br />To set it up: in the trigger, keep Message Received in Events and turn on Group Quick Messages and Catch Up Missed Messages. Here, choose the same credential as the trigger. Connect both nodes to the same next node, then publish the workflow (on n8n 1.x: activate it).<br /><br />At each poll time it checks the chats that have been quiet for 3 minutes or more, by the trigger\'s Filters, Human Takeover and Max Age. A message runs only once, whichever node finds it.',
		name: 'notice',
		type: 'notice',
		default: '',
	},
];
