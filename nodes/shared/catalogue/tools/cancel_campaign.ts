import { defineTool } from '../defineTool';
import { uuid } from '../formats';
import { writeInput } from '../shapes';

export const cancelCampaignTool = defineTool({
	name: 'cancel_campaign',
	displayName: 'Cancel Campaign',
	resource: 'campaign',
	access: 'write',
	channel: 'business',
	description:
		'Permanently stops a draft, running or paused campaign; it cannot be resumed. Recipients not yet ' +
		'messaged are never sent to, but a send already in flight may still finish.',
	input: writeInput({
		campaignId: uuid.describe('Campaign to cancel'),
	}),
});
