import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/*
 * Parameters read for every input item, cheaply. Batch mode reads four or more per item, and
 * n8n evaluating `={{ $json.phoneNumber }}` sets up a whole expression context each time (a
 * third of a 100,000-recipient upload went there). A parameter that is exactly a plain field
 * reference (`$json.a.b`, `$json["a"][0]`, …) is read straight from the item instead, and only
 * where the answer is certainly what n8n's evaluation gives: plain JSON found by own
 * properties. Everything else (a missing step on the way, a prototype name, a Date, text around
 * the braces, any other expression) is left to n8n's getNodeParameter.
 */

type Step = string | number;

// `.name`, `["name"]`, `['name']` or `[3]`: no escapes, no braces (n8n cuts templates at `}}`), no spaces.
const STEP_TEXT = String.raw`\.[A-Za-z_$][\w$]*|\["[^"\\{}]*"\]|\['[^'\\{}]*'\]|\[(?:0|[1-9]\d*)\]`;
const WHOLE_REFERENCE = new RegExp(String.raw`^=\{\{\s*\$json((?:${STEP_TEXT})+)\s*\}\}$`);
const STEP = /\.([A-Za-z_$][\w$]*)|\["([^"\\]*)"\]|\['([^'\\]*)'\]|\[(\d+)\]/g;

/** The steps of `={{ $json… }}` when the parameter is exactly that, else undefined. */
export function plainReference(raw: unknown): Step[] | undefined {
	if (typeof raw !== 'string') return undefined;
	const match = WHOLE_REFERENCE.exec(raw);
	if (!match) return undefined;
	const steps: Step[] = [];
	for (const [, name, doubleQuoted, singleQuoted, index] of match[1].matchAll(STEP)) {
		const step = name ?? doubleQuoted ?? singleQuoted;
		steps.push(step !== undefined ? step : Number(index));
	}
	return steps;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
	const prototype = Object.getPrototypeOf(value) as unknown;
	return prototype === Object.prototype || prototype === null;
}

/** Strings, finite numbers, booleans, null, and arrays and plain objects of them: what n8n hands on unchanged. */
function isPlainJson(value: unknown): boolean {
	if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
	if (typeof value === 'number') return Number.isFinite(value);
	if (Array.isArray(value)) return value.every(isPlainJson);
	return isPlainObject(value) && Object.values(value).every(isPlainJson);
}

/** The value at `steps` inside `json`, or undefined where plain JavaScript could differ from n8n's reading. */
export function readReference(
	json: IDataObject,
	steps: readonly Step[],
): { value: unknown } | undefined {
	let current: unknown = json;
	for (const step of steps) {
		if (Array.isArray(current) && typeof step === 'number') {
			current = current[step];
		} else if (isPlainObject(current) && typeof step === 'string') {
			// `constructor`, `__proto__`, `toString` …: whatever n8n makes of them, it is not a field.
			if (step in Object.prototype) return undefined;
			current = Object.prototype.hasOwnProperty.call(current, step) ? current[step] : undefined;
		} else {
			// undefined or null on the way (n8n reports an error), a string's length, an array's name …
			return undefined;
		}
	}
	return current === undefined || isPlainJson(current) ? { value: current } : undefined;
}

const ABSENT = {};

/** Whether a raw parameter value holds an expression anywhere (`=…` strings, at any depth). */
function holdsExpression(raw: unknown): boolean {
	if (typeof raw === 'string') return raw.startsWith('=');
	if (Array.isArray(raw)) return raw.some(holdsExpression);
	return typeof raw === 'object' && raw !== null && Object.values(raw).some(holdsExpression);
}

type Kind = { steps: Step[] } | { constant: true } | { absent: true } | { perItem: true };

/**
 * One run's parameters, each read for any item as getNodeParameter would: plain references
 * straight from the item, parameters without any expression once for all items (n8n gives the
 * same value for every item; it is read-only from here on), the rest by n8n for each item.
 */
export class ItemParameters {
	private readonly kinds = new Map<string, Kind>();
	private readonly constants = new Map<string, unknown>();
	private readonly items;
	private variedSinceCheck = false;

	constructor(private readonly context: IExecuteFunctions) {
		this.items = context.getInputData();
	}

	get(name: string, itemIndex: number, fallback?: unknown): unknown {
		const kind = this.kindOf(name);
		if ('constant' in kind) {
			if (!this.constants.has(name))
				this.constants.set(name, this.context.getNodeParameter(name, itemIndex, fallback));
			return this.constants.get(name);
		}
		// Not set: n8n answers with the fallback, for every item alike.
		if ('absent' in kind) return this.context.getNodeParameter(name, itemIndex, fallback);
		this.variedSinceCheck = true;
		const json = this.items[itemIndex]?.json;
		if ('steps' in kind && json) {
			const read = readReference(json, kind.steps);
			if (read) return read.value;
		}
		return this.context.getNodeParameter(name, itemIndex, fallback);
	}

	/** Runs `read` (which reads through `view`) and tells whether all it read is the same for every item. */
	sameForEveryItem<T>(read: () => T): { value: T; same: boolean } {
		this.variedSinceCheck = false;
		const value = read();
		return { value, same: !this.variedSinceCheck };
	}

	/**
	 * Whether reading `names` again for an item gives what the first reading gave: yes when each is
	 * a plain field reference (even where n8n evaluates it, it reads only the item), a fixed value
	 * or unset; no for any other expression, which may read the clock or chance.
	 */
	readsAgainAlike(names: readonly string[]): boolean {
		return names.every((name) => !('perItem' in this.kindOf(name)));
	}

	/** The node's context, its parameters read through this reader. */
	view(): IExecuteFunctions {
		const getNodeParameter = (name: string, itemIndex: number, fallback?: unknown) =>
			this.get(name, itemIndex, fallback);
		return Object.create(this.context, {
			getNodeParameter: { value: getNodeParameter },
		}) as IExecuteFunctions;
	}

	private kindOf(name: string): Kind {
		let kind = this.kinds.get(name);
		if (!kind) {
			const raw = this.context.getNodeParameter(name, 0, ABSENT, { rawExpressions: true });
			const steps = plainReference(raw);
			if (steps) kind = { steps };
			else if (raw === ABSENT) kind = { absent: true };
			else kind = holdsExpression(raw) ? { perItem: true } : { constant: true };
			this.kinds.set(name, kind);
		}
		return kind;
	}
}
