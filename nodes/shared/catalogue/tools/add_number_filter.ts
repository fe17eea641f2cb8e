import { defineTool } from '../defineTool';
import { chars, filterPhone, list } from '../formats';
import { writeInput } from '../shapes';

export const addNumberFilterTool = defineTool({
	name: 'add_number_filter',
	displayName: 'Add Number Filter',
	operation: {
		value: 'add',
		name: 'Add',
		action: 'Add a number filter',
		summary: 'Add numbers to the include or exclude list (owner keys only)',
		default: true,
	},
	resource: 'numberFilter',
	access: 'write',
	ownerOnly: true,
	channel: 'none',
	batch: { field: 'phoneNumbers', max: 100 },
	description:
		'Owner keys only. Adds one number (phoneNumber, optionally labelled with name) or 1-100 numbers ' +
		'(phoneNumbers) to the current include or exclude list. This changes which chats are visible and ' +
		'eligible for future sending and syncing; it does not prove opt-in and does not delete history.',
	input: writeInput({
		phoneNumber: filterPhone.optional(),
		phoneNumbers: list(filterPhone, 1, 100)
			.optional()
			.meta({ title: 'Phone Numbers' })
			.describe('Several numbers at once, 1-100'),
		name: chars(1, 120)
			.optional()
			.meta({ title: 'Label' })
			.describe('Name shown for the single Phone Number')
			.meta({ examples: ['Support line'] }),
	}),
});
