import type { FieldChoice, ToolDefinition } from '../../../../shared/catalogue/types';
import type { SchemaField } from '../../../helpers/jsonSchema';

/*
 * Where each field of a catalogue tool sits in the "Fields" mode. The editor description and
 * the code that reads the parameters back both follow this one plan, so they cannot disagree.
 */

/** A field shown only while `parameter` (a choice's selector) has the value `option`. */
export interface ShownWhen {
	parameter: string;
	option: string;
}

export interface PlacedField {
	field: SchemaField;
	/** Up front, or under Additional Fields. */
	upFront: boolean;
	/** Marked required in the editor: required by the schema, or the field a choice picked. */
	required: boolean;
	when?: ShownWhen;
}

/** What the editor shows up front, in order: fields, and choice selectors before their fields. */
export type UpFrontEntry =
	| { kind: 'field'; placed: PlacedField }
	| { kind: 'choice'; choice: FieldChoice };

export interface FieldPlan {
	upFront: UpFrontEntry[];
	additional: PlacedField[];
}

function choiceOf(
	tool: ToolDefinition,
	field: string,
): { choice: FieldChoice; option: string; own: boolean } | undefined {
	for (const choice of tool.layout?.choices ?? []) {
		for (const option of choice.options) {
			if (option.field === field) return { choice, option: option.field, own: true };
			if (option.with?.includes(field)) return { choice, option: option.field, own: false };
		}
	}
	return undefined;
}

export function planFields(tool: ToolDefinition, fields: readonly SchemaField[]): FieldPlan {
	const primary = new Set(tool.layout?.primary ?? []);
	const plan: FieldPlan = { upFront: [], additional: [] };
	const announced = new Set<FieldChoice>();
	for (const field of fields) {
		const inChoice = choiceOf(tool, field.name);
		if (inChoice) {
			if (!announced.has(inChoice.choice))
				plan.upFront.push({ kind: 'choice', choice: inChoice.choice });
			announced.add(inChoice.choice);
			const when = { parameter: inChoice.choice.parameter, option: inChoice.option };
			const placed = { field, upFront: true, required: field.required || inChoice.own, when };
			plan.upFront.push({ kind: 'field', placed });
		} else if (field.required || primary.has(field.name)) {
			plan.upFront.push({
				kind: 'field',
				placed: { field, upFront: true, required: field.required },
			});
		} else {
			plan.additional.push({ field, upFront: false, required: false });
		}
	}
	return plan;
}

/** Every field of the plan, up front first. */
export function placedFields(plan: FieldPlan): PlacedField[] {
	const upFront = plan.upFront.flatMap((entry) => (entry.kind === 'field' ? [entry.placed] : []));
	return [...upFront, ...plan.additional];
}
