import type { TemplateRecord } from '../model';
import { type ToolHandler, invalidInput, str, toolError } from './context';
import { findTemplate, templateVariableCount, templateVariables } from './templateText';

function templateView(t: TemplateRecord) {
	return {
		template_id: t.id,
		name: t.name,
		language: t.language,
		category: t.category,
		status: t.status,
		body: t.body,
		body_examples: [...t.bodyExamples],
		header: t.header,
		footer: t.footer,
		variable_count: templateVariableCount(t.body),
	};
}

const createBusinessTemplate: ToolHandler = (ctx) => {
	const name = str(ctx.input, 'name') ?? '';
	const language = str(ctx.input, 'language') ?? '';
	const body = str(ctx.input, 'body') ?? '';
	if (findTemplate(ctx.account, name, language)) {
		throw toolError(
			`A template ${name} (${language}) already exists; choose another name or language.`,
		);
	}
	const variables = templateVariables(body);
	const expected = variables.map((_, i) => i + 1);
	if (variables.some((n, i) => n !== expected[i])) {
		throw toolError('Body variables must be numbered {{1}}, {{2}}, ... in order without gaps.');
	}
	const examples = (ctx.input.bodyExamples as string[] | undefined) ?? [];
	if (examples.length !== variables.length) {
		throw toolError(
			`bodyExamples needs one sample per numbered variable in order: the body has ${variables.length}, got ${examples.length}.`,
		);
	}
	const record: TemplateRecord = {
		id: ctx.state.ids.prefixed('tpl_', 8),
		name,
		language,
		category: ctx.input.category as TemplateRecord['category'],
		body,
		bodyExamples: examples,
		header: str(ctx.input, 'header') ?? null,
		footer: str(ctx.input, 'footer') ?? null,
		// The provider reviews every new template and decides category and approval.
		status: 'PENDING',
		createdAt: ctx.state.clock.now(),
	};
	ctx.account.templates.push(record);
	return templateView(record);
};

/** Extra tool: one template by name, and language when several exist. */
const getBusinessTemplate: ToolHandler = (ctx) => {
	const name = str(ctx.input, 'name') ?? '';
	const language = str(ctx.input, 'language');
	const matches = ctx.account.templates.filter(
		(t) => t.name === name && (language === undefined || t.language === language),
	);
	if (matches.length === 0)
		throw toolError(`No Business template ${name}${language ? ` (${language})` : ''} exists.`);
	if (matches.length > 1) {
		throw invalidInput(
			'language',
			`is required: ${name} exists in ${matches.map((t) => t.language).join(', ')}`,
		);
	}
	return templateView(matches[0]);
};

export const templateHandlers: Record<string, ToolHandler> = {
	create_business_template: createBusinessTemplate,
	get_business_template: getBusinessTemplate,
};
