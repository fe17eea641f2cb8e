import { join } from 'node:path';
import type {
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';

import { MessagingAutomation } from '../../nodes/MessagingAutomation/MessagingAutomation.node';
import { MessagingAutomationCatchUp } from '../../nodes/MessagingAutomationCatchUp/MessagingAutomationCatchUp.node';
import { MessagingAutomationChatMemory } from '../../nodes/MessagingAutomationChatMemory/MessagingAutomationChatMemory.node';
import { MessagingAutomationTrigger } from '../../nodes/MessagingAutomationTrigger/MessagingAutomationTrigger.node';

/*
 * A readable picture of what the editor shows: for the action node, every resource › operation
 * with the parameters it shows, in the editor's order; for the trigger, its parameters. Each
 * parameter gives its label, type, default, the further conditions it shows under, and its text.
 * The file it renders is checked in (test/nodes/__snapshots__/descriptions.txt), so a change to a
 * format or a field helper shows in the diff as the editor will show it.
 */

export const SNAPSHOT_FILE = join(__dirname, '..', 'nodes', '__snapshots__', 'descriptions.txt');
export const UPDATE_COMMAND = 'npm run snapshot:update';

type Option = INodePropertyOptions | INodeProperties | INodePropertyCollection;

const value = (input: unknown) => JSON.stringify(input) ?? 'undefined';

/** Conditions other than the resource and operation the parameter is listed under. */
function conditionsText(
	displayOptions: INodeProperties['displayOptions'],
	listed: readonly string[],
): string {
	const parts: string[] = [];
	for (const [kind, conditions] of [
		['show', displayOptions?.show],
		['hide', displayOptions?.hide],
	] as const) {
		for (const [name, values] of Object.entries(conditions ?? {})) {
			if (kind === 'show' && listed.includes(name)) continue;
			parts.push(
				`${kind === 'show' ? '' : 'not '}${name} = ${(values ?? []).map(value).join(' | ')}`,
			);
		}
	}
	return parts.length === 0 ? '' : ` when ${parts.join(', ')}`;
}

function textLines(label: string, text: unknown, indent: string): string[] {
	return typeof text === 'string' && text !== '' ? [`${indent}  ${label}: ${text}`] : [];
}

function optionLines(option: Option, indent: string, listed: readonly string[]): string[] {
	if ('type' in option && 'displayName' in option) return propertyLines(option, indent, listed);
	if ('values' in option) {
		return [
			`${indent}- ${option.displayName} (${option.name})`,
			...option.values.flatMap((inner) => propertyLines(inner, `${indent}    `, listed)),
		];
	}
	const action = 'action' in option && option.action ? ` [action: ${option.action}]` : '';
	const description = option.description ? `: ${option.description}` : '';
	return [`${indent}- ${option.name} = ${value(option.value)}${action}${description}`];
}

function propertyLines(
	property: INodeProperties,
	indent: string,
	listed: readonly string[],
): string[] {
	const flags = [
		property.required ? 'required' : '',
		property.noDataExpression ? 'no expression' : '',
	].filter(Boolean);
	const head = `${indent}${property.displayName} (${property.name}): ${property.type}, default ${value(property.default)}`;
	return [
		`${head}${flags.length > 0 ? `, ${flags.join(', ')}` : ''}${conditionsText(property.displayOptions, listed)}`,
		...textLines('description', property.description, indent),
		...textLines('hint', property.hint, indent),
		...textLines('placeholder', property.placeholder, indent),
		...(property.typeOptions ? [`${indent}  typeOptions: ${value(property.typeOptions)}`] : []),
		...((property.options ?? []) as Option[]).flatMap((option) =>
			optionLines(option, `${indent}    `, listed),
		),
	];
}

function shows(property: INodeProperties, name: string, candidate: string): boolean {
	const allowed = property.displayOptions?.show?.[name] as unknown[] | undefined;
	const hidden = property.displayOptions?.hide?.[name] as unknown[] | undefined;
	return (
		(allowed === undefined || allowed.includes(candidate)) && !(hidden ?? []).includes(candidate)
	);
}

/**
 * Drops parameters shown only under a parameter this operation does not have (the mapper's
 * Input where the operation offers no Input Mode): the editor never shows them there.
 */
function withoutOrphans(candidates: INodeProperties[]): INodeProperties[] {
	let kept = candidates;
	for (;;) {
		const names = new Set(['resource', 'operation', ...kept.map((property) => property.name)]);
		const next = kept.filter((property) =>
			Object.keys(property.displayOptions?.show ?? {}).every(
				(name) => name.startsWith('@') || names.has(name),
			),
		);
		if (next.length === kept.length) return kept;
		kept = next;
	}
}

/** A long parameter shown the same way under many operations is written out the first time only. */
function once(lines: string[], where: string, seen: Map<string, string>): string[] {
	if (lines.length <= 4) return lines;
	const text = lines.join('\n');
	const first = seen.get(text);
	if (first !== undefined) return [`${lines[0]} (details as under ${first})`];
	seen.set(text, where);
	return lines;
}

function headerLines(description: INodeTypeDescription): string[] {
	return [
		`# ${description.displayName} (${description.name})`,
		`description: ${description.description}`,
		`group: ${description.group.join(', ')}; usable as AI tool: ${description.usableAsTool === true ? 'yes' : 'no'}`,
		`credentials: ${(description.credentials ?? []).map((credential) => credential.name).join(', ')}`,
		`webhooks: ${value(description.webhooks ?? [])}`,
		`subtitle: ${String(description.subtitle)}`,
	];
}

/** Every resource › operation of the action node, with the parameters shown for it. */
function actionLines(description: INodeTypeDescription): string[] {
	const properties = description.properties;
	const resource = properties.find((property) => property.name === 'resource');
	const lines = [
		...headerLines(description),
		'',
		...propertyLines(resource as INodeProperties, '', []),
	];
	const seen = new Map<string, string>();
	for (const { value: resourceValue, name } of (resource?.options ??
		[]) as INodePropertyOptions[]) {
		const resourceName = String(resourceValue);
		const operations = properties.filter(
			(property) => property.name === 'operation' && shows(property, 'resource', resourceName),
		);
		for (const operation of operations) {
			lines.push('', `## ${name} (${resourceName})`, ...propertyLines(operation, '', ['resource']));
			for (const option of (operation.options ?? []) as INodePropertyOptions[]) {
				const operationValue = String(option.value);
				const candidates = properties.filter(
					(property) =>
						property.name !== 'resource' &&
						property.name !== 'operation' &&
						shows(property, 'resource', resourceName) &&
						shows(property, 'operation', operationValue),
				);
				const visible = withoutOrphans(candidates);
				const where = `${name} › ${option.name}`;
				lines.push('', `### ${where} (${resourceName}/${operationValue})`);
				lines.push(
					...visible.flatMap((property) =>
						once(propertyLines(property, '', ['resource', 'operation']), where, seen),
					),
				);
			}
		}
	}
	return lines;
}

/** A node without resources and operations: its header, then every field in order. */
function plainNodeLines(description: INodeTypeDescription): string[] {
	return [
		...headerLines(description),
		'',
		...description.properties.flatMap((property) => propertyLines(property, '', [])),
	];
}

/** The whole picture, as checked in. */
export function renderDescriptions(): string {
	const action = new MessagingAutomation().description;
	const trigger = new MessagingAutomationTrigger().description;
	const memory = new MessagingAutomationChatMemory().description;
	const catchUp = new MessagingAutomationCatchUp().description;
	return [
		...actionLines(action),
		'',
		'',
		...plainNodeLines(trigger),
		'',
		'',
		...plainNodeLines(catchUp),
		'',
		'',
		...plainNodeLines(memory),
		'',
	].join('\n');
}
