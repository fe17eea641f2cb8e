import {
	NodeConnectionTypes,
	NodeOperationError,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { isCaughtUp } from '../MessagingAutomationTrigger/run/caughtUp';
import { claimRun } from '../MessagingAutomationTrigger/run/runClaim';
import { pollCatchUp } from '../MessagingAutomationTrigger/catchUp/catchUpPoll';
import { testRunError } from '../MessagingAutomationTrigger/catchUp/testRunError';
import {
	BOT_OUTPUT_NAME,
	PEOPLE_OUTPUT_NAME,
} from '../MessagingAutomationTrigger/run/takeoverOutput';
import { catchUpPollProperties } from '../MessagingAutomationTrigger/catchUp/pollProperties';
import {
	movedCredential,
	sharedCatchUpSettings,
} from '../MessagingAutomationTrigger/catchUp/sharedSettings';

const RAN_BEFORE_SAVED =
	"Ran nothing yet: n8n had not yet saved the trigger's settings when this run started; the next poll runs these messages";

export class MessagingAutomationCatchUp implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Messaging Automation Catch-Up',
		name: 'messagingAutomationCatchUp',
		icon: {
			light: 'file:messagingAutomationCatchUp.svg',
			dark: 'file:messagingAutomationCatchUp.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: 'Missed messages',
		description:
			'Runs the messages the Messaging Automation Trigger missed: those that never reached n8n, and those written while the workflow was unpublished',
		defaults: { name: 'Messaging Automation Catch-Up' },
		polling: true,
		inputs: [],
		// The trigger's outputs with Human Takeover on; without it, nothing comes out of Paused Chats.
		outputs: [
			{ type: NodeConnectionTypes.Main, displayName: BOT_OUTPUT_NAME },
			{ type: NodeConnectionTypes.Main, displayName: PEOPLE_OUTPUT_NAME },
		],
		credentials: [{ name: 'messagingAutomationApi', required: true }],
		properties: catchUpPollProperties,
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollCatchUp(this);
	}

	/**
	 * n8n's first step of each run a poll starts, once recorded: the trigger's claim (runClaim.ts),
	 * made for the trigger the poll follows, passes on only messages no run held; it fails the run
	 * when n8n's record of runs fails, and the poll reads those chats again. A test run (execute() stands in for poll() there) shows
	 * what a poll would run now, and claims nothing.
	 *
	 * The run reads the trigger's settings as the database holds them now, the poll those of its
	 * own activation: a trigger published again alone on another credential (n8n 2.40 activates
	 * only the triggers that changed) leaves the poll reading the old account, and the run fails,
	 * saying so, rather than run that account's messages (review s6, S6-6). A key replaced in the
	 * same credential keeps its id, and runs on (R9b-10).
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		if (this.getMode() === 'manual') return (await pollCatchUp(this)) ?? [[], []];
		const lookup = sharedCatchUpSettings(this);
		// A person's Retry of a failed Fetch Test Event (its input no poll's items) has no poll behind
		// it: the step left (R11-2); a Retry of a poll's run says what the run would (R11c-4).
		const polled = [0, 1].some((output) => this.getInputData(output).some(isCaughtUp));
		if (this.getMode() === 'retry' && !polled && !('trigger' in lookup)) throw testRunError(this);
		// The poll found settings, the saved workflow this run loaded has none: most often the poll
		// of a publication ran before n8n saved what the trigger shared (seen in n8n 2.40.7).
		if ('noneShared' in lookup && lookup.noneShared)
			throw new NodeOperationError(this.getNode(), RAN_BEFORE_SAVED, {
				description:
					"A poll started this run while the workflow was being published or unpublished, before n8n had saved the Messaging Automation Trigger's settings. No message was marked as run, so while the workflow is published the next poll runs them: there is nothing to do.",
			});
		if (!('trigger' in lookup))
			throw new NodeOperationError(this.getNode(), `Caught up nothing: ${lookup.why}`);
		const moved = movedCredential(this, lookup.settings);
		if (moved) throw moved;
		return await claimRun(this, { trigger: lookup.trigger, polled: true }, 2);
	}
}
