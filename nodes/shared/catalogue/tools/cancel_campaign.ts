import { defineTool } from '../defineTool';
import { uuid } from '../formats';
import { writeInput } from '../shapes';

export const cancelCampaignTool = defineTool({
	name: 'cancel_campaign',
	displayName: 'Cancel Campaign',
	operation: {
		value: 'cancel',
		name: 'Cancel',
		action: 'Cancel a campaign',
		summary: 'Stop a campaign for good; recipients not yet messaged get nothing',
	},
	resource: 'campaign',
	access: 'write',
	channel: 'business',
	description:
		'Permanently stops a draft, running or paused campaign; it cannot be resumed. Recipients not yet ' +
		'messaged are never sent to, but a send already in flight may still finish.',
	input: writeInput({
		campaignId: uuid.meta({ title: 'Campaign ID' }).describe('The campaign to cancel'),
	}),
});
