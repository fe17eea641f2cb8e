import { describe, expect, it } from 'vitest';
import { catalogue, findTool } from '../../../../nodes/shared/catalogue';
import { ASSUMED_TOOLS, DOCUMENTED_TOOLS, SHAPELESS_TOOLS, SPEC_ROWS, SPEC_TABLE_TOOLS } from './specTable';

/*
 * The spec's statements about its tools, checked on the entries of the tools it documents: a tool
 * added to the catalogue is checked here once the spec (and specTable.ts) documents it.
 */
const documented = catalogue.filter((tool) => DOCUMENTED_TOOLS.includes(tool.name));

const names = (predicate: (tool: (typeof catalogue)[number]) => boolean) =>
	documented
		.filter(predicate)
		.map((tool) => tool.name)
		.sort();

describe('catalogue', () => {
	it('holds every tool of the spec table plus send_message, get_operation and get_send_status', () => {
		expect(DOCUMENTED_TOOLS.filter((name) => !findTool(name))).toEqual([]);
		expect(names((tool) => !tool.shapeAssumed)).toEqual([...SPEC_TABLE_TOOLS, ...ASSUMED_TOOLS].sort());
	});

	it('marks the tools whose request shape the spec does not show as assumed, and only those', () => {
		expect(catalogue.filter((tool) => tool.shapeAssumed).map((tool) => tool.name).sort()).toEqual([...SHAPELESS_TOOLS].sort());
		for (const name of SHAPELESS_TOOLS) expect(findTool(name)?.access, name).toBe('read');
	});

	it('gives every tool an operation of its own, one default per resource', () => {
		const seen = new Set(catalogue.map((tool) => `${tool.resource}/${tool.operation.value}`));
		expect(seen.size).toBe(catalogue.length);
		const resources = new Set(catalogue.map((tool) => tool.resource));
		for (const resource of resources) {
			const defaults = catalogue.filter((tool) => tool.resource === resource && tool.operation.default);
			expect(defaults.length, resource).toBeLessThanOrEqual(1);
		}
	});

	it('finds entries by API name only', () => {
		expect(findTool('send_message')?.displayName).toBe('Send Message');
		expect(findTool('Send Message')).toBeUndefined();
		expect(findTool('')).toBeUndefined();
	});

	it('marks as write exactly the tools whose spec row requires an idempotency key, plus send_message', () => {
		const keyed = SPEC_ROWS.filter((row) => row.required.includes('idempotencyKey')).map(
			(row) => row.tool,
		);
		expect(names((tool) => tool.access === 'write')).toEqual(
			[...new Set([...keyed, 'send_message'])].sort(),
		);
		expect(new Set(keyed).size).toBe(13);
	});

	it('marks add_number_filter and delete_chat as owner-only, nothing else', () => {
		expect(names((tool) => tool.ownerOnly)).toEqual(['add_number_filter', 'delete_chat']);
	});

	it('assigns the assumed scopes: groups for group tools, send for other writes, read for reads', () => {
		const groupTools = ['add_group_participants', 'create_group', 'demote_group_admins'];
		for (const tool of catalogue) {
			const expected = groupTools.includes(tool.name)
				? 'messenger.groups'
				: tool.access === 'write'
					? 'messenger.send'
					: 'messenger.read';
			expect(tool.scope, tool.name).toBe(expected);
		}
	});

	it('counts as QR sends the message actions the spec says count against send limits', () => {
		expect(names((tool) => tool.countsAsSend)).toEqual([
			'delete_message',
			'edit_message',
			'forward_message',
			'send_message',
		]);
	});

	it('declares the batch limits of the spec limits table', () => {
		const batches = Object.fromEntries(
			documented.filter((tool) => tool.batch).map((tool) => [tool.name, tool.batch]),
		);
		expect(batches).toEqual({
			add_campaign_recipients: { field: 'recipients', max: 500, dedupeBy: 'phoneNumber' },
			add_number_filter: { field: 'phoneNumbers', max: 100 },
			add_group_participants: { field: 'participants', max: 50 },
			demote_group_admins: { field: 'participants', max: 50 },
		});
		// Its 1-50 participants stay in one call: split, create_group would create several groups.
		expect(findTool('create_group')?.batch).toBeUndefined();
	});

	it('declares the outcome check of every write, and which read tools answer it', () => {
		for (const tool of catalogue) {
			const expected = tool.access === 'read' ? [] : tool.countsAsSend ? ['operation', 'sendStatus'] : ['operation'];
			expect(tool.outcomeCheck, tool.name).toEqual(expected);
		}
		expect(names((tool) => tool.answersLookup === 'operation')).toEqual(['get_operation']);
		expect(names((tool) => tool.answersLookup === 'sendStatus')).toEqual(['get_send_status']);
	});

	it('puts QR-only actions on qr and Business-account tools on business', () => {
		expect(names((tool) => tool.channel === 'qr')).toEqual([
			'add_group_participants',
			'create_group',
			'delete_chat',
			'delete_message',
			'demote_group_admins',
			'edit_message',
			'forward_message',
			'get_attachment_link',
		]);
		expect(names((tool) => tool.channel === 'input')).toEqual([
			'check_recipient_send_options',
			'send_message',
		]);
		for (const name of [
			'create_campaign',
			'create_business_template',
			'create_messenger_form',
			'get_business_health',
		]) {
			expect(findTool(name)?.channel, name).toBe('business');
		}
	});

	it('gives every entry a distinct display name and a description of whole sentences', () => {
		expect(new Set(catalogue.map((tool) => tool.displayName)).size).toBe(catalogue.length);
		for (const tool of catalogue) {
			expect(tool.displayName, tool.name).toMatch(/^[A-Z][A-Za-z ]+$/);
			expect(tool.description.length, tool.name).toBeGreaterThan(tool.shapeAssumed ? 40 : 80);
			expect(tool.description, tool.name).toMatch(/\.$/);
		}
	});

	it('states in the descriptions what a result does not prove', () => {
		expect(findTool('send_message')?.description).toMatch(/not a confirmed delivery/);
		expect(findTool('add_number_filter')?.description).toMatch(/does not prove opt-in/);
		expect(findTool('check_recipient_send_options')?.description).toMatch(/does not prove/);
		expect(findTool('estimate_business_price')?.description).toMatch(/not a binding quote/);
	});
});
