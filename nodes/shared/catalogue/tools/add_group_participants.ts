import { defineTool } from '../defineTool';
import { groupJid } from '../formats';
import { groupParticipants, groupToolMetadata, writeInput } from '../shapes';

export const addGroupParticipantsTool = defineTool({
	name: 'add_group_participants',
	displayName: 'Add Group Participants',
	...groupToolMetadata,
	description:
		'Adds 1-50 people to a QR group. The linked number must be an admin of the group. ' +
		'Success means the request was accepted, not that every person joined.',
	input: writeInput({
		jid: groupJid,
		participants: groupParticipants.describe('Phone numbers to add, 1-50 per call'),
	}),
});
