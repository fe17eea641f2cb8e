import type { IDataObject } from 'n8n-workflow';

import type { FormField } from './pages';

const TYPES: ReadonlyArray<FormField['type']> = [
	'text',
	'textarea',
	'number',
	'email',
	'date',
	'dropdown',
];

/** The Custom Form's fields from its Form Fields parameter (`formFields.values`), without empty labels. */
export function formFields(values: unknown): FormField[] {
	const raw = Array.isArray(values) ? (values as IDataObject[]) : [];
	return raw
		.filter((field) => String(field.fieldLabel ?? '').trim() !== '')
		.map((field) => ({
			label: String(field.fieldLabel).trim(),
			type: TYPES.includes(field.fieldType as FormField['type'])
				? (field.fieldType as FormField['type'])
				: 'text',
			options: String(field.fieldOptions ?? '')
				.split(',')
				.map((option) => option.trim())
				.filter((option) => option !== ''),
			required: field.requiredField === true,
		}));
}
