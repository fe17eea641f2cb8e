import type { IDataObject, INodeParameters, ResourceMapperFields } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { getToolFields } from '../../../../../nodes/MessagingAutomation/methods/resourceMapping';
import { DEMO } from '../../../../sandbox';
import { fieldsParameters, mapperValue, useHarness } from '../../harness';

/*
 * Input modes and validation: a bad value is refused before any request with the field and the
 * rule; properties outside the schema are never sent; tools the catalogue does not know are
 * driven from their live schema (resource mapper) and from raw JSON.
 */

const h = useHarness();

async function searchFields(): Promise<ResourceMapperFields> {
	return await getToolFields.call(
		h.loadOptions({ resource: 'message', operation: 'search', inputMode: 'mapper' }),
	);
}

const searchJson = (json: IDataObject | string): INodeParameters => ({
	resource: 'message',
	operation: 'search',
	inputMode: 'json',
	jsonInput: typeof json === 'string' ? json : JSON.stringify(json),
	returnAll: true,
});

describe('validation before any request', () => {
	it('names the field and the rule, and sends nothing (fields mode)', async () => {
		const result = await h.run({
			parameters: fieldsParameters('send_message', {
				channel: 'qr',
				phoneNumber: '0151 234',
				text: 'Hi',
			}),
		});
		expect(result.error?.message).toBe(
			'Phone Number must be 7-15 digits, first digit not 0. Nothing was sent.',
		);
		expect(result.calls).toEqual([]);
	});

	it('checks cross-field rules of the catalogue', async () => {
		const parameters = {
			resource: 'message',
			operation: 'send',
			inputMode: 'json',
			jsonInput: JSON.stringify({ channel: 'qr', text: 'No recipient' }),
		};
		const result = await h.run({ parameters });
		expect(result.error?.message).toMatch(
			/Phone Number is required unless Conversation ID is given/,
		);
		expect(result.calls).toEqual([]);
	});

	it('refuses properties the tool does not accept (JSON mode), naming them', async () => {
		const parameters: INodeParameters = {
			resource: 'message',
			operation: 'send',
			inputMode: 'json',
			jsonInput: JSON.stringify({
				channel: 'qr',
				phoneNumber: DEMO.alice.phone,
				text: 'Hi',
				priority: 'high',
			}),
		};
		const result = await h.run({ parameters, continueOnFail: true });
		expect(result.json[0].error).toMatchObject({ code: 'input_validation', field: 'priority' });
		expect(String((result.json[0].error as IDataObject).message)).toMatch(
			/"priority" is not an accepted property/,
		);
		expect(result.calls).toEqual([]);
	});

	it('a broken item under Continue On Fail fails alone; the others are sent', async () => {
		const parameters = fieldsParameters('send_message', {
			channel: 'qr',
			phoneNumber: '={{ $json.phone }}',
			text: 'Hi',
		});
		const result = await h.run({ parameters, continueOnFail: true }, [
			{ phone: DEMO.alice.phone },
			{ phone: '12' },
			{ phone: DEMO.bob.phone },
		]);
		expect(result.json.map((json) => (json.error ? 'error' : json.status))).toEqual([
			'accepted',
			'error',
			'accepted',
		]);
		expect(result.output.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(result.calls).toHaveLength(2);
	});

	it('coerces editor values to the schema types (lists, numbers, dates)', async () => {
		const created = await h.run({
			parameters: fieldsParameters('create_campaign', {
				name: 'Q4',
				templateName: 'order_update',
				templateLanguage: 'en',
				maxMessages: '250',
			}),
		});
		expect(created.calls[0].input).toMatchObject({ maxMessages: 250 });
		const group = await h.run({
			parameters: fieldsParameters('create_group', {
				subject: 'Crew',
				participants: `${DEMO.alice.phone}\n${DEMO.bob.phone}`,
			}),
		});
		expect(group.calls[0].input).toMatchObject({
			participants: [DEMO.alice.phone, DEMO.bob.phone],
		});
	});
});

describe('tools only the live service describes', () => {
	it('the resource mapper offers the live schema fields: required, enums, numbers', async () => {
		const { fields } = await searchFields();
		expect(fields.map((field) => [field.id, field.type, field.required])).toEqual([
			['query', 'string', true],
			['conversationId', 'string', false],
			['channel', 'options', false],
		]);
		expect(
			fields.find((field) => field.id === 'channel')?.options?.map((option) => option.value),
		).toEqual(['business', 'qr']);
	});

	it('runs from the resource mapper; fields the schema does not name are not sent', async () => {
		const { fields } = await searchFields();
		const result = await h.run({
			parameters: {
				resource: 'message',
				operation: 'search',
				inputMode: 'mapper',
				toolInput: mapperValue(fields, { query: 'order', channel: 'qr', staleField: 'x' }),
				returnAll: true,
			},
		});
		expect(result.error).toBeUndefined();
		// Return All asks for the largest page the schema allows.
		expect(result.calls[0].input).toEqual({ query: 'order', channel: 'qr', limit: 100 });
		expect(result.json.length).toBeGreaterThan(0);
	});

	it("maps input items automatically, taking only the fields the schema names; paging stays the node's", async () => {
		const { fields } = await searchFields();
		const result = await h.run(
			{
				parameters: {
					resource: 'message',
					operation: 'search',
					inputMode: 'mapper',
					toolInput: mapperValue(fields, {}, 'autoMapInputData'),
				},
			},
			[{ query: 'ticket', customer: 'Bob', limit: '5' }],
		);
		expect(result.error).toBeUndefined();
		expect(result.calls[0].input).toEqual({ query: 'ticket', limit: 50 });
	});

	it('runs from raw JSON, validated against the live schema before sending', async () => {
		const ok = await h.run({ parameters: searchJson({ query: 'order' }) });
		expect(ok.error).toBeUndefined();
		expect(ok.calls).toHaveLength(1);
		const tooLong = await h.run({ parameters: searchJson({ query: 'x'.repeat(201) }) });
		expect(tooLong.error?.message).toBe('Search Term must be 1-200 characters. Nothing was sent.');
		const unknown = await h.run({ parameters: searchJson({ query: 'x', mood: 'happy' }) });
		expect(unknown.error?.message).toMatch(/"mood" is not an accepted property/);
		const broken = await h.run({ parameters: searchJson('{ "query": ') });
		expect(broken.error?.message).toMatch(/The input is not valid JSON/);
		expect([tooLong.calls, unknown.calls, broken.calls]).toEqual([[], [], []]);
	});

	it('a stale cached tool list never blocks a call the key may now make', async () => {
		h.usePersona('noConsent');
		const account = h.sandbox.state.accounts.get('acc_noconsent');
		// Caches the list for this key while the account lacks inbox consent (no search_messages).
		await getToolFields.call(
			h.loadOptions({ resource: 'message', operation: 'search', inputMode: 'mapper' }),
		);
		if (!account) throw new Error('seed changed');
		account.inboxStorageConsent = true;
		const result = await h.run({ parameters: searchJson({ query: 'order' }) });
		expect(result.error).toBeUndefined();
		expect(result.calls.map((call) => [call.tool, call.status])).toEqual([
			['search_messages', 200],
		]);
	});
});

describe('property names that reach the prototype', () => {
	it('are refused by live-schema validation with a clear message, and nothing is sent', async () => {
		for (const name of ['constructor', '__proto__', 'prototype']) {
			const result = await h.run({
				parameters: searchJson(`{ "query": "x", "${name}": { "polluted": true } }`),
			});
			expect(result.error?.message).toMatch(/__proto__, constructor and prototype are refused/);
			expect(result.calls).toEqual([]);
		}
	});

	it("cannot smuggle a write tool's required fields in through `__proto__`", async () => {
		const result = await h.run({
			parameters: {
				resource: 'message',
				operation: 'send',
				inputMode: 'json',
				jsonInput: '{ "__proto__": { "channel": "qr", "to": "4915112345678", "text": "hi" } }',
			},
		});
		expect(result.error?.message).toMatch(/__proto__/);
		expect(result.calls).toEqual([]);
	});

	it('are left out in mapper mode, without a misleading "not valid JSON"', async () => {
		const { fields } = await searchFields();
		const result = await h.run(
			{
				parameters: {
					resource: 'message',
					operation: 'search',
					inputMode: 'mapper',
					toolInput: mapperValue(fields, {}, 'autoMapInputData'),
				},
			},
			[
				JSON.parse(
					'{ "query": "ticket", "constructor": "x", "__proto__": { "polluted": true } }',
				) as IDataObject,
			],
		);
		expect(result.error).toBeUndefined();
		expect(result.calls[0].input).toEqual({ query: 'ticket', limit: 50 });
	});

	it('a huge unknown property name is cut in the message', async () => {
		const name = 'n'.repeat(1_000_000);
		const result = await h.run({ parameters: searchJson(`{ "query": "x", "${name}": 1 }`) });
		expect(result.error?.message).toMatch(/…\(1000000 characters\)/);
		expect(result.error?.message.length).toBeLessThan(2_000);
	});
});
