import { z } from 'zod/v4';
import { defineTool } from '../defineTool';
import { chars, list } from '../formats';
import { formDefinition } from '../formDefinition';
import { writeInput } from '../shapes';

const FORM_CATEGORIES = [
	'SIGN_UP',
	'SIGN_IN',
	'APPOINTMENT_BOOKING',
	'LEAD_GENERATION',
	'CONTACT_US',
	'CUSTOMER_SUPPORT',
	'SURVEY',
	'OTHER',
] as const;

export const createMessengerFormTool = defineTool({
	name: 'create_messenger_form',
	displayName: 'Create Messenger Form',
	operation: {
		value: 'create',
		name: 'Create or Update',
		action: 'Create or update a form',
		summary: 'Save a form as a draft, or replace the definition of a draft',
		default: true,
	},
	resource: 'form',
	access: 'write',
	channel: 'business',
	description:
		'Saves an interactive form (screens opened inside a chat) as a DRAFT on the Business account; ' +
		'nothing is sent. Omit form_id to create a form; give the form_id of an existing draft to replace ' +
		'its definition. The provider validates the flow JSON and returns its errors: fix them and save ' +
		'again with form_id. Returns a preview_url for sharing.',
	input: writeInput({
		form_id: chars(1, 30)
			.optional()
			.meta({ title: 'Draft Form ID' })
			.describe('A draft form to replace; leave empty to create a new form'),
		name: chars(1, 200).describe('Form name, unique on the account, 1-200 characters'),
		categories: list(z.enum(FORM_CATEGORIES), 1, 3).describe('1-3 form categories'),
		definition: formDefinition,
	}),
});
