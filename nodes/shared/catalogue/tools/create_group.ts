import { defineTool } from '../defineTool';
import { chars } from '../formats';
import { groupParticipants, groupToolMetadata, writeInput } from '../shapes';

export const createGroupTool = defineTool({
	name: 'create_group',
	displayName: 'Create Group',
	operation: {
		value: 'create',
		name: 'Create',
		action: 'Create a group',
		summary: 'Create a QR group and invite people to it',
		default: true,
	},
	...groupToolMetadata,
	description:
		'Creates a group from the QR account and invites 1-50 participants. It does not enable saving ' +
		'or syncing of the new group; select it in the dashboard for its messages to be saved.',
	input: writeInput({
		subject: chars(1, 100)
			.describe('Group name, 1-100 characters')
			.meta({ examples: ['Project team'] }),
		participants: groupParticipants
			.meta({ title: 'Participants' })
			.describe('Phone numbers to invite, 1-50: digits only, international format, no +'),
	}),
});
