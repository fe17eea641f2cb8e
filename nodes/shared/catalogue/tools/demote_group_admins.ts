import { defineTool } from '../defineTool';
import { groupJid } from '../formats';
import { groupBatch, groupParticipants, groupToolMetadata, writeInput } from '../shapes';

export const demoteGroupAdminsTool = defineTool({
	name: 'demote_group_admins',
	displayName: 'Demote Group Admins',
	operation: {
		value: 'demoteAdmins',
		name: 'Demote Admins',
		action: 'Demote group admins',
		summary: 'Take admin rights from group members; they stay in the group',
	},
	...groupToolMetadata,
	batch: groupBatch,
	description:
		'Removes admin rights from 1-50 admins of a QR group; they stay in the group as members. ' +
		'The linked number must itself be an admin.',
	input: writeInput({
		jid: groupJid,
		participants: groupParticipants.meta({ title: 'Admins' }).describe(
			'Phone numbers of the admins to demote, 1-50 per call',
		),
	}),
});
