import type { FormRecord } from '../model';
import { type ToolHandler, str, toolError } from './context';
import { checkFormDefinition } from './formRules';

/** The definition may come as an object or as a JSON string holding one (schema-checked already). */
function parseDefinition(value: unknown): unknown {
	return typeof value === 'string' ? JSON.parse(value) : value;
}

/**
 * Saves or replaces a DRAFT. Provider validation errors come back as 422 tool_error with
 * `errors: [{ path, message }]`, every problem at once, so the caller can fix and save again.
 */
const createMessengerForm: ToolHandler = (ctx) => {
	const { account } = ctx;
	const formId = str(ctx.input, 'form_id');
	const name = str(ctx.input, 'name') ?? '';
	const existing = formId !== undefined ? account.forms.get(formId) : undefined;
	if (formId !== undefined && !existing)
		throw toolError(`No form ${formId} exists; omit form_id to create a new form.`);
	if (existing && existing.status !== 'DRAFT')
		throw toolError(`Form ${formId} is not a DRAFT and cannot be replaced.`);
	const clash = [...account.forms.values()].find((f) => f.name === name && f.id !== formId);
	if (clash)
		throw toolError(
			`A form named "${name}" already exists (${clash.id}); names are unique on the account.`,
			{ field: 'name' },
		);
	const definition = parseDefinition(ctx.input.definition);
	const problems = checkFormDefinition(definition);
	if (problems.length > 0) {
		const list = problems.map((p) => `${p.path}: ${p.message}`).join('; ');
		throw toolError(
			`The form definition has ${problems.length} problem(s): ${list}. Fix them and save again${formId ? ` with form_id ${formId}` : ''}.`,
			{
				errors: problems,
			},
		);
	}
	// Provider form ids are numeric strings.
	const id = existing?.id ?? String(1e15 + Math.floor(ctx.state.ids.random() * 9e15));
	const record: FormRecord = {
		id,
		name,
		categories: [...(ctx.input.categories as string[])],
		definition,
		status: 'DRAFT',
		previewUrl: `${ctx.baseUrl}/forms/${id}/preview`,
		updatedAt: ctx.state.clock.now(),
	};
	account.forms.set(id, record);
	return {
		form_id: record.id,
		name: record.name,
		status: record.status,
		categories: record.categories,
		preview_url: record.previewUrl,
		replaced: existing !== undefined,
		validation_errors: [],
	};
};

export const formHandlers: Record<string, ToolHandler> = {
	create_messenger_form: createMessengerForm,
};
