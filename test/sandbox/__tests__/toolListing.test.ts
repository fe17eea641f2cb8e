import { describe, expect, it } from 'vitest';
import { catalogue } from '../../../nodes/shared/catalogue';
import { useSandbox, write } from './harness';

const EXTRA = [
	'get_business_pricing_analytics',
	'get_business_template',
	'get_messages',
	'list_conversations',
	'search_attachments',
	'search_messages',
];
const GROUP_TOOLS = ['add_group_participants', 'create_group', 'demote_group_admins'];
const OWNER_ONLY = ['add_number_filter', 'delete_chat'];
const INBOX = [
	'delete_chat',
	'forward_message',
	'get_attachment_link',
	'get_messages',
	'list_conversations',
	'search_attachments',
	'search_messages',
];

describe('sandbox tool listing and permissions', () => {
	const api = useSandbox();
	const names = async (as: Parameters<typeof api.get>[1]) =>
		((await api.get('/api/v1/tools', as)).body.tools as { name: string }[])
			.map((t) => t.name)
			.sort();

	it('lists every catalogue tool and the six schema-less extras for the owner, each with a strict JSON Schema', async () => {
		const { body } = await api.get('/api/v1/tools');
		const listed = body.tools.map((t: { name: string }) => t.name).sort();
		expect(listed).toEqual(
			[...catalogue.filter((t) => !t.shapeAssumed).map((t) => t.name), ...EXTRA].sort(),
		);
		for (const tool of body.tools) {
			expect(tool.access).toMatch(/^(read|write)$/);
			expect(tool.description.length).toBeGreaterThan(20);
			expect(tool.input_schema).toMatchObject({ type: 'object', additionalProperties: false });
		}
		const messages = body.tools.find((t: { name: string }) => t.name === 'get_messages');
		expect(messages.input_schema.required).toEqual(['conversationId']);
		expect(Object.keys(messages.input_schema.properties)).toEqual([
			'conversationId',
			'cursor',
			'limit',
		]);
	});

	it('hides group tools and owner-only tools from a default (member) key', async () => {
		const listed = await names({ as: 'member' });
		for (const name of [...GROUP_TOOLS, ...OWNER_ONLY]) expect(listed).not.toContain(name);
		expect(listed).toContain('send_message');
	});

	it('lists only read tools for a read-only key', async () => {
		const { body } = await api.get('/api/v1/tools', { as: 'readOnly' });
		expect(body.tools.length).toBeGreaterThan(10);
		expect(body.tools.every((t: { access: string }) => t.access === 'read')).toBe(true);
	});

	it('hides inbox tools when the account has no inbox storage consent', async () => {
		const listed = await names({ as: 'noConsent' });
		for (const name of INBOX) expect(listed).not.toContain(name);
		expect(listed).toContain('send_message');
	});

	it('answers 404 unknown_tool for a name the service does not know', async () => {
		const reply = await api.call('send_fax', {});
		expect(reply.status).toBe(404);
		expect(reply.body.error.code).toBe('unknown_tool');
	});

	it.each([
		[
			'a missing scope',
			'readOnly',
			'send_message',
			{ channel: 'qr', phoneNumber: '4915112345678', text: 'hi' },
		],
		[
			'the group permission',
			'member',
			'create_group',
			{ subject: 'x', participants: ['4915112345678'] },
		],
		['owner-only tools', 'member', 'add_number_filter', { phoneNumber: '+4915112345678' }],
		[
			'inbox storage consent',
			'noConsent',
			'get_messages',
			{ conversationId: '4915112345678@s.whatsapp.net' },
		],
	] as const)('answers 403 insufficient_permission for %s', async (_, as, tool, body) => {
		const reply = await write(api, tool, body, { as });
		expect(reply.status).toBe(403);
		expect(reply.body.error.code).toBe('insufficient_permission');
		expect(api.sandbox.inject.sends()).toEqual([]);
	});

	it('lets a noWebhooks key use tools but not webhook management', async () => {
		expect((await api.get('/api/v1/webhooks', { as: 'noWebhooks' })).body.error.code).toBe(
			'insufficient_permission',
		);
		expect((await api.get('/api/v1/webhooks')).status).toBe(200);
	});
});
