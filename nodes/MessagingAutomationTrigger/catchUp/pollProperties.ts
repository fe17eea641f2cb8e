import type { INodeProperties } from 'n8n-workflow';

/**
 * The Catch-Up node's fields: only its notice. Everything else (grouping, Filters, Human Takeover,
 * Max Age) is the trigger's (sharedSettings.ts); n8n adds Poll Times itself (`polling: true`).
 */
export const catchUpPollProperties: INodeProperties[] = [
	{
		displayName:
			"Runs the messages the Messaging Automation Trigger in this workflow missed: messages that never reached n8n, and messages written while the workflow was unpublished. With Pass Answers to Send and Wait on, it also passes a missed reply to the \"Send a message and wait for response\" step still waiting for it. To set it up, turn on Group Quick Messages and Catch Up Missed Messages in the trigger (Events: Message Received), choose the trigger's credential here, connect this node's Bot output to the trigger's next node, and publish the workflow (on n8n 1.x, activate it). Paused Chats is for the trigger's Human Takeover: without it, nothing comes out there; with it, connect Bot and Paused Chats where the trigger's Bot and Paused Chats go. It follows the trigger's Filters, Human Takeover and Max Age, checks the chats quiet for 3 minutes or more at each poll time, and runs each message once, whichever node finds it.",
		name: 'notice',
		type: 'notice',
		default: '',
	},
];
