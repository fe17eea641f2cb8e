import { describe, expect, it } from 'vitest';
import { DEMO } from '../index';
import { useSandbox, write } from './harness';

describe('sandbox groups and number filters', () => {
	const api = useSandbox();
	const group = () => api.sandbox.state.account('acc_demo').groups.get(DEMO.adminGroup.jid)!;

	it('creates a group with the linked number as admin, not selected for saving', async () => {
		const reply = await write(api, 'create_group', {
			subject: 'Pop-up store',
			participants: [DEMO.alice.phone, DEMO.bob.phone, DEMO.alice.phone],
		});
		expect(reply.body).toMatchObject({
			jid: expect.stringMatching(/^\d[\d-]*@g\.us$/),
			subject: 'Pop-up store',
			syncing: false,
		});
		expect(reply.body.participants).toEqual([DEMO.alice.phone, DEMO.bob.phone]);
		const stored = api.sandbox.state.account('acc_demo').groups.get(reply.body.jid)!;
		expect(stored.participants[0]).toEqual({ phone: DEMO.qrPhone, admin: true });
		expect(stored.selected).toBe(false);
	});

	it('adds participants only where the linked number is admin', async () => {
		const added = await write(api, 'add_group_participants', {
			jid: DEMO.adminGroup.jid,
			participants: [DEMO.carol.phone, DEMO.bob.phone],
		});
		expect(added.body).toMatchObject({
			added: [DEMO.carol.phone],
			already_members: [DEMO.bob.phone],
		});
		const refused = await write(api, 'add_group_participants', {
			jid: DEMO.memberGroup.jid,
			participants: [DEMO.carol.phone],
		});
		expect(refused.status).toBe(422);
		expect(refused.body.error.message).toMatch(/admin/);
		const unknown = await write(api, 'add_group_participants', {
			jid: '120363000000000000@g.us',
			participants: [DEMO.carol.phone],
		});
		expect(unknown.status).toBe(422);
	});

	it('demotes admins, who stay members; non-admins are reported', async () => {
		const reply = await write(api, 'demote_group_admins', {
			jid: DEMO.adminGroup.jid,
			participants: [DEMO.alice.phone, DEMO.bob.phone],
		});
		expect(reply.body).toMatchObject({ demoted: [DEMO.alice.phone], not_admins: [DEMO.bob.phone] });
		expect(group().participants).toContainEqual({ phone: DEMO.alice.phone, admin: false });
		expect(
			(
				await write(api, 'demote_group_admins', {
					jid: DEMO.memberGroup.jid,
					participants: [DEMO.bob.phone],
				})
			).status,
		).toBe(422);
	});

	it('checks group input formats: jid shape and 1-50 participants', async () => {
		expect(
			(
				await write(api, 'add_group_participants', {
					jid: 'support@g.us',
					participants: [DEMO.bob.phone],
				})
			).body.error.field,
		).toBe('jid');
		const many = Array.from({ length: 51 }, (_, i) => `4915100000${String(i).padStart(3, '0')}`);
		expect(
			(await write(api, 'create_group', { subject: 'Big', participants: many })).body.error.field,
		).toBe('participants');
	});

	it('adds numbers to the current list, deduplicated, without touching history', async () => {
		const single = await write(api, 'add_number_filter', {
			phoneNumber: '+44 7700 900123',
			name: 'Bob mobile',
		});
		expect(single.body).toMatchObject({
			list: 'exclude',
			added: ['+44 7700 900123'],
			already_listed: [],
			list_size: 2,
		});
		const many = await write(api, 'add_number_filter', {
			phoneNumbers: ['447700900123', '+1 555 010 9999', '15550199999'],
		});
		expect(many.body).toMatchObject({
			added: ['+1 555 010 9999'],
			already_listed: ['447700900123', '15550199999'],
		});
		// Bob is now excluded: no more sends or saving, but his old messages stay.
		expect(
			(await write(api, 'send_message', { channel: 'qr', phoneNumber: DEMO.bob.phone, text: 'hi' }))
				.status,
		).toBe(422);
		expect(
			api.sandbox.inject.injectMessage({ from: { phone: DEMO.bob.phone }, text: 'hello' }).saved,
		).toBe(false);
		expect(
			api.sandbox.state.account('acc_demo').messages.some((m) => m.text === 'Invoice attached'),
		).toBe(true);
	});

	it('takes one number and a list together, names only the single one, and refuses none or more than 100', async () => {
		const both = await write(api, 'add_number_filter', {
			phoneNumber: '+1 555 010 1111',
			phoneNumbers: ['+1 555 010 2222'],
			name: 'Desk',
		});
		expect(both.body).toMatchObject({ added: ['+1 555 010 1111', '+1 555 010 2222'] });
		expect(
			api.sandbox.state.account('acc_demo').filters.filter((entry) => entry.name === 'Desk'),
		).toHaveLength(1);
		expect((await write(api, 'add_number_filter', {})).body.error.field).toBe('phoneNumber');
		const many = Array.from({ length: 101 }, (_, i) => `4915100000${String(i).padStart(3, '0')}`);
		expect((await write(api, 'add_number_filter', { phoneNumbers: many })).body.error.field).toBe(
			'phoneNumbers',
		);
	});
});
