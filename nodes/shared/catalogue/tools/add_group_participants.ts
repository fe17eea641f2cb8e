import { defineTool } from '../defineTool';
import { groupJid } from '../formats';
import { groupBatch, groupParticipants, groupToolMetadata, writeInput } from '../shapes';

export const addGroupParticipantsTool = defineTool({
	name: 'add_group_participants',
	displayName: 'Add Group Participants',
	operation: {
		value: 'addParticipants',
		name: 'Add Participants',
		action: 'Add participants to a group',
		summary: 'Add people to a QR group the number administers',
	},
	...groupToolMetadata,
	batch: groupBatch,
	description:
		'Adds 1-50 people to a QR group. The linked number must be an admin of the group. ' +
		'Success means the request was accepted, not that every person joined.',
	input: writeInput({
		jid: groupJid,
		participants: groupParticipants.meta({ title: 'Participants' }).describe('Phone numbers to add, 1-50 per call: digits only, international format, no +'),
	}),
});
