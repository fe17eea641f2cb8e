import { describe, expect, it } from 'vitest';
import { useSandbox, write } from './harness';

/** A valid two-screen form: navigate, then complete collecting answers of both screens. */
function validForm() {
	return {
		version: '7.2',
		screens: [
			{
				id: 'CONTACT',
				title: 'Your details',
				data: {},
				layout: {
					type: 'SingleColumnLayout',
					children: [
						{ type: 'TextHeading', text: 'Book a visit' },
						{ type: 'TextInput', name: 'email', label: 'Email', 'input-type': 'email' },
						{
							type: 'Footer',
							label: 'Next',
							'on-click-action': {
								name: 'navigate',
								next: { type: 'screen', name: 'SLOT' },
								payload: {},
							},
						},
					],
				},
			},
			{
				id: 'SLOT',
				title: 'Pick a slot',
				terminal: true,
				success: true,
				data: {},
				layout: {
					type: 'SingleColumnLayout',
					children: [
						{
							type: 'ChipsSelector',
							name: 'slot',
							label: 'Slot',
							'data-source': [
								{ id: 'am', title: 'Morning' },
								{ id: 'pm', title: 'Afternoon' },
							],
						},
						{ type: 'OptIn', name: 'reminder', label: 'Send me a reminder' },
						{
							type: 'Footer',
							label: 'Book',
							'on-click-action': {
								name: 'complete',
								payload: {
									slot: '${form.slot}',
									reminder: '${form.reminder}',
									email: '${screen.CONTACT.form.email}',
								},
							},
						},
					],
				},
			},
		],
	};
}

describe('sandbox forms', () => {
	const api = useSandbox();
	const save = (definition: unknown, extra: Record<string, unknown> = {}) =>
		write(api, 'create_messenger_form', {
			name: 'Visit booking',
			categories: ['APPOINTMENT_BOOKING'],
			definition,
			...extra,
		});

	it('saves a valid form as a DRAFT with a preview_url, sending nothing', async () => {
		const reply = await save(validForm());
		expect(reply.status).toBe(200);
		expect(reply.body).toMatchObject({
			form_id: expect.stringMatching(/^\d+$/),
			status: 'DRAFT',
			name: 'Visit booking',
			replaced: false,
		});
		expect(reply.body.preview_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/forms\/\d+\/preview$/);
		expect(api.sandbox.inject.sends()).toEqual([]);
	});

	it('accepts the definition as a JSON string', async () => {
		expect((await save(JSON.stringify(validForm()))).status).toBe(200);
	});

	it('returns every problem with the path to fix as 422 tool_error', async () => {
		const form = validForm();
		const [contact, slot] = form.screens as any[];
		contact.id = 'contact-1';
		contact.layout.children[1] = { type: 'TextInput', name: 'email', 'input-type': 'url' };
		contact.layout.children.splice(1, 0, { type: 'Carousel' });
		slot.terminal = false;
		slot.layout.children[0]['data-source'] = [{ id: 'am' }];
		slot.layout.children[2]['on-click-action'].payload.email = '${screen.NOPE.form.email}';
		const reply = await save(form);
		expect(reply.status).toBe(422);
		expect(reply.body.error.code).toBe('tool_error');
		const paths = reply.body.error.errors.map((e: { path: string }) => e.path);
		expect(paths).toEqual([
			'definition.screens[0].id',
			'definition.screens[0].layout.children[1].type',
			'definition.screens[0].layout.children[2].label',
			'definition.screens[0].layout.children[2].input-type',
			'definition.screens[1].layout.children[0].data-source',
			'definition.screens[1]',
			'definition.screens[1].layout.children[2].on-click-action.payload.email',
		]);
		for (const path of paths) expect(reply.body.error.message).toContain(path);
	});

	it.each([
		['a reserved screen id', (f: any) => (f.screens[1].id = 'SUCCESS'), 'definition.screens[1].id'],
		['a missing version', (f: any) => delete f.version, 'definition.version'],
		[
			'another layout type',
			(f: any) => (f.screens[0].layout.type = 'TwoColumnLayout'),
			'definition.screens[0].layout.type',
		],
		['a screen without data', (f: any) => delete f.screens[0].data, 'definition.screens[0].data'],
		[
			'a screen not ending in a Footer',
			(f: any) => f.screens[0].layout.children.pop(),
			'definition.screens[0].layout.children',
		],
		[
			'complete before the last screen',
			(f: any) =>
				(f.screens[0].layout.children[2]['on-click-action'] = { name: 'complete', payload: {} }),
			'definition.screens[0].layout.children[2].on-click-action.name',
		],
		[
			'navigate without a payload',
			(f: any) => delete f.screens[0].layout.children[2]['on-click-action'].payload,
			'definition.screens[0].layout.children[2].on-click-action.payload',
		],
		[
			'duplicate input names',
			(f: any) =>
				f.screens[1].layout.children.splice(1, 0, {
					type: 'TextArea',
					name: 'slot',
					label: 'Again',
				}),
			'definition.screens[1].layout.children[1].name',
		],
		[
			'a reference to an input of another screen as ${form...}',
			(f: any) =>
				(f.screens[1].layout.children[2]['on-click-action'].payload.email = '${form.email}'),
			'definition.screens[1].layout.children[2].on-click-action.payload.email',
		],
	])('refuses %s', async (_, mutate, path) => {
		const form = validForm();
		mutate(form);
		const reply = await save(form);
		expect(reply.status).toBe(422);
		expect(reply.body.error.errors.map((e: { path: string }) => e.path)).toContain(path);
	});

	it('checks inputs nested in If and Switch', async () => {
		const form = validForm();
		(form.screens[0].layout.children as unknown[]).splice(1, 0, {
			type: 'If',
			condition: '${data.vip}',
			then: [{ type: 'TextInput', name: 'code' }],
			else: [
				{
					type: 'Switch',
					value: '${data.kind}',
					cases: { a: [{ type: 'Dropdown', label: 'Pick' }] },
				},
			],
		});
		const reply = await save(form);
		expect(reply.body.error.errors.map((e: { path: string }) => e.path)).toEqual([
			'definition.screens[0].layout.children[1].then[0].label',
			'definition.screens[0].layout.children[1].else[0].cases.a[0].name',
		]);
	});

	it('replaces an existing draft by form_id, keeps names unique and refuses unknown ids', async () => {
		const first = await save(validForm());
		const fixed = validForm();
		fixed.screens[0].title = 'Contact details';
		const replaced = await save(fixed, { form_id: first.body.form_id });
		expect(replaced.body).toMatchObject({
			form_id: first.body.form_id,
			replaced: true,
			status: 'DRAFT',
		});
		const clash = await save(validForm());
		expect(clash.status).toBe(422);
		expect(clash.body.error.message).toMatch(/unique/);
		expect((await save(validForm(), { form_id: '999', name: 'Other' })).status).toBe(422);
	});
});
