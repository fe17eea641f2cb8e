import type { AccountState, TemplateRecord } from '../model';

const VARIABLE = /\{\{(\d+)\}\}/g;

/** The numbered variables of a body, in order of first appearance. */
export function templateVariables(body: string): number[] {
	const seen: number[] = [];
	for (const match of body.matchAll(VARIABLE)) {
		const n = Number(match[1]);
		if (!seen.includes(n)) seen.push(n);
	}
	return seen;
}

/** Highest variable number: {{1}}..{{n}} need n values. */
export function templateVariableCount(body: string): number {
	return Math.max(0, ...templateVariables(body));
}

export function renderTemplate(body: string, parameters: readonly string[]): string {
	return body.replace(VARIABLE, (_, n: string) => parameters[Number(n) - 1] ?? '');
}

export function findTemplate(
	account: AccountState,
	name: string,
	language: string,
): TemplateRecord | undefined {
	return account.templates.find((t) => t.name === name && t.language === language);
}
