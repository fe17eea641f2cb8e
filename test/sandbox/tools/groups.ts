import type { GroupRecord } from '../model';
import { type ToolContext, type ToolHandler, str, toolError } from './context';

function adminGroup(ctx: ToolContext): GroupRecord {
	const jid = str(ctx.input, 'jid') ?? '';
	const group = ctx.account.groups.get(jid);
	if (!group) throw toolError(`The linked number is not in the group ${jid}.`);
	const me = group.participants.find((p) => p.phone === ctx.account.channels.qr.phone);
	if (!me?.admin)
		throw toolError(`The linked number is not an admin of ${jid}; this needs admin rights.`);
	return group;
}

function participants(ctx: ToolContext): string[] {
	return [...new Set(ctx.input.participants as string[])];
}

const createGroup: ToolHandler = (ctx) => {
	const jid = `120363${ctx.state.ids.random().toString().slice(2, 14).padEnd(12, '0')}@g.us`;
	const subject = str(ctx.input, 'subject') ?? '';
	const invited = participants(ctx).filter((p) => p !== ctx.account.channels.qr.phone);
	// Creating a group does not enable syncing: it stays unselected, so nothing is saved.
	ctx.account.groups.set(jid, {
		jid,
		subject,
		participants: [
			{ phone: ctx.account.channels.qr.phone, admin: true },
			...invited.map((phone) => ({ phone, admin: false })),
		],
		selected: false,
	});
	return { jid, subject, participants: invited, syncing: false };
};

const addGroupParticipants: ToolHandler = (ctx) => {
	const group = adminGroup(ctx);
	const added: string[] = [];
	const alreadyMembers: string[] = [];
	for (const phone of participants(ctx)) {
		if (group.participants.some((p) => p.phone === phone)) alreadyMembers.push(phone);
		else {
			group.participants.push({ phone, admin: false });
			added.push(phone);
		}
	}
	return { jid: group.jid, added, already_members: alreadyMembers };
};

const demoteGroupAdmins: ToolHandler = (ctx) => {
	const group = adminGroup(ctx);
	const demoted: string[] = [];
	const notAdmins: string[] = [];
	for (const phone of participants(ctx)) {
		const member = group.participants.find((p) => p.phone === phone);
		if (member?.admin) {
			member.admin = false;
			demoted.push(phone);
		} else notAdmins.push(phone);
	}
	return { jid: group.jid, demoted, not_admins: notAdmins };
};

export const groupHandlers: Record<string, ToolHandler> = {
	create_group: createGroup,
	add_group_participants: addGroupParticipants,
	demote_group_admins: demoteGroupAdmins,
};
