import type { INodePropertyOptions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { resourceOfTool } from '../../../../nodes/MessagingAutomation/actions/resources';
import { getOperations } from '../../../../nodes/MessagingAutomation/methods/loadOptions';
import { useHarness } from '../harness';

/* The operation dropdown: the live tool list of the credential's key, catalogue names, fallback. */

const h = useHarness();

async function operations(resource: string): Promise<INodePropertyOptions[]> {
	return await getOperations.call(h.loadOptions({ resource }));
}
const values = (options: INodePropertyOptions[]) => options.map((option) => option.value);

describe('operation list', () => {
	it('lists the tools of the resource, named and described from the catalogue', async () => {
		const message = await operations('message');
		expect(values(message)).toEqual(
			expect.arrayContaining(['send_message', 'edit_message', 'get_messages', 'search_messages', 'search_attachments']),
		);
		expect(message.find((option) => option.value === 'send_message')).toMatchObject({
			name: 'Send Message',
			description: expect.stringMatching(/idempotency key/),
		});
		// a tool only the service knows: named from its name, described by the service
		expect(message.find((option) => option.value === 'get_messages')).toMatchObject({
			name: 'Get Messages',
			description: expect.stringMatching(/saved messages/),
		});
		expect(values(message)).not.toContain('list_conversations');
		expect(message.map((option) => option.name)).toEqual([...message.map((option) => option.name)].sort((a, b) => a.localeCompare(b)));
	});

	it('offers only the tools the key may use', async () => {
		h.usePersona('member');
		expect(values(await operations('group'))).toEqual([]);
		expect(values(await operations('numberFilter'))).toEqual([]);
		h.usePersona('readOnly');
		expect(values(await operations('message'))).not.toContain('send_message');
	});

	it('puts Account > Get first, then the account tools', async () => {
		expect(values(await operations('account'))).toEqual(['getMe', 'get_account_context']);
	});

	it('falls back to every known tool when the list cannot be loaded', async () => {
		h.engine.credentialsHelper.set('messagingAutomationApi', { apiKey: 'k', baseUrl: 'http://127.0.0.1:9', authScheme: 'bearer' });
		expect(values(await operations('group'))).toEqual(['add_group_participants', 'create_group', 'demote_group_admins']);
		expect(values(await operations('chat'))).toContain('list_conversations');
	});
});

describe('resource of tools the catalogue does not know', () => {
	it('is guessed from the name, else Other', () => {
		expect(resourceOfTool('get_business_template')).toBe('businessTemplate');
		expect(resourceOfTool('get_business_pricing_analytics')).toBe('businessAccount');
		expect(resourceOfTool('list_conversations')).toBe('chat');
		expect(resourceOfTool('search_attachments')).toBe('message');
		expect(resourceOfTool('pause_campaign')).toBe('campaign');
		expect(resourceOfTool('frobnicate')).toBe('other');
		expect(resourceOfTool('get_operation')).toBe('other');
	});
});
