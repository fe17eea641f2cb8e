/**
 * Every rule of the spec's "Form definition rules", each reported with the path to fix.
 * The provider's own checks are not shown; these are the ones the spec states.
 */

export interface FormProblem {
	path: string;
	message: string;
}

type Json = Record<string, unknown>;

const SCREEN_ID = /^[A-Za-z_]+$/;
const DISPLAY = [
	'TextHeading',
	'TextSubheading',
	'TextBody',
	'TextCaption',
	'EmbeddedLink',
	'Image',
];
const INPUTS = [
	'TextInput',
	'TextArea',
	'Dropdown',
	'RadioButtonsGroup',
	'CheckboxGroup',
	'ChipsSelector',
	'DatePicker',
	'CalendarPicker',
	'OptIn',
	'PhotoPicker',
	'DocumentPicker',
];
const CONTROL = ['If', 'Switch'];
const ALLOWED = new Set([...DISPLAY, ...INPUTS, ...CONTROL, 'Footer']);
const INPUT_TYPES = ['text', 'number', 'email', 'password', 'passcode', 'phone'];
const REFERENCE = /\$\{([^}]*)\}/g;

const isObject = (v: unknown): v is Json =>
	typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

interface ScreenInfo {
	id: string;
	inputs: Set<string>;
}

class Checker {
	readonly problems: FormProblem[] = [];
	private readonly screens: ScreenInfo[] = [];

	add(path: string, message: string): void {
		this.problems.push({ path, message });
	}

	definition(def: Json): void {
		if (!nonEmptyString(def.version))
			this.add('definition.version', 'is required (a version string such as "7.2")');
		if (!Array.isArray(def.screens) || def.screens.length === 0) {
			this.add('definition.screens', 'must be a non-empty list of screens');
			return;
		}
		const screens = def.screens as unknown[];
		screens.forEach((screen, i) =>
			this.screen(screen, `definition.screens[${i}]`, i === screens.length - 1, screens),
		);
	}

	private screen(screen: unknown, path: string, last: boolean, all: unknown[]): void {
		if (!isObject(screen)) return this.add(path, 'must be an object');
		const id = screen.id;
		if (!nonEmptyString(id)) this.add(`${path}.id`, 'is required');
		else if (!SCREEN_ID.test(id)) this.add(`${path}.id`, 'must use letters and underscores only');
		else if (id === 'SUCCESS') this.add(`${path}.id`, 'SUCCESS is reserved');
		else if (this.screens.some((s) => s.id === id))
			this.add(`${path}.id`, `duplicates screen id ${id}`);
		if (!nonEmptyString(screen.title)) this.add(`${path}.title`, 'is required');
		if (!isObject(screen.data))
			this.add(`${path}.data`, 'is required (an object, {} when the screen takes no data)');
		const info: ScreenInfo = { id: typeof id === 'string' ? id : '', inputs: new Set() };
		const layout = screen.layout;
		if (!isObject(layout)) return this.add(`${path}.layout`, 'is required');
		if (layout.type !== 'SingleColumnLayout')
			this.add(`${path}.layout.type`, 'must be "SingleColumnLayout"');
		if (!Array.isArray(layout.children))
			return this.add(`${path}.layout.children`, 'must be a list of components');
		const children = layout.children as unknown[];
		this.components(children, `${path}.layout.children`, info);
		if (last && (screen.terminal !== true || screen.success !== true)) {
			this.add(path, 'the last screen must have terminal true and success true');
		}
		const footer = children.at(-1);
		const footerPath = `${path}.layout.children[${children.length - 1}]`;
		if (!isObject(footer) || footer.type !== 'Footer')
			this.add(`${path}.layout.children`, 'must end in a Footer');
		else this.footer(footer, footerPath, last, all, info);
		this.screens.push(info);
	}

	private components(children: unknown[], path: string, screen: ScreenInfo): void {
		children.forEach((child, i) =>
			this.component(child, `${path}[${i}]`, screen, i === children.length - 1),
		);
	}

	private component(child: unknown, path: string, screen: ScreenInfo, lastChild: boolean): void {
		if (!isObject(child)) return this.add(path, 'must be a component object');
		const type = child.type;
		if (typeof type !== 'string' || !ALLOWED.has(type)) {
			return this.add(`${path}.type`, `${JSON.stringify(type)} is not an allowed component`);
		}
		if (type === 'Footer' && !lastChild)
			this.add(path, 'a Footer must be the last component of the screen');
		if (INPUTS.includes(type)) this.input(child, path, screen);
		if (type === 'If') {
			for (const branch of ['then', 'else'] as const) {
				if (Array.isArray(child[branch]))
					this.components(child[branch] as unknown[], `${path}.${branch}`, screen);
			}
			if (!Array.isArray(child.then)) this.add(`${path}.then`, 'must be a list of components');
		}
		if (type === 'Switch') {
			if (!isObject(child.cases)) this.add(`${path}.cases`, 'must be an object of component lists');
			else {
				for (const [name, list] of Object.entries(child.cases)) {
					if (Array.isArray(list)) this.components(list, `${path}.cases.${name}`, screen);
					else this.add(`${path}.cases.${name}`, 'must be a list of components');
				}
			}
		}
	}

	private input(child: Json, path: string, screen: ScreenInfo): void {
		if (!nonEmptyString(child.name)) this.add(`${path}.name`, 'is required for inputs');
		else if (screen.inputs.has(child.name))
			this.add(`${path}.name`, `duplicates input name ${child.name} on this screen`);
		else screen.inputs.add(child.name);
		if (!nonEmptyString(child.label)) this.add(`${path}.label`, 'is required for inputs');
		if (
			child.type === 'TextInput' &&
			child['input-type'] !== undefined &&
			!INPUT_TYPES.includes(String(child['input-type']))
		) {
			this.add(`${path}.input-type`, `must be one of ${INPUT_TYPES.join(', ')}`);
		}
		if (child.type === 'ChipsSelector') {
			const source = child['data-source'];
			const valid =
				Array.isArray(source) &&
				source.length > 0 &&
				source.every((o) => isObject(o) && nonEmptyString(o.id) && nonEmptyString(o.title));
			if (!valid) this.add(`${path}.data-source`, 'must be a non-empty list of {id, title}');
		}
	}

	private footer(
		footer: Json,
		path: string,
		last: boolean,
		all: unknown[],
		screen: ScreenInfo,
	): void {
		const action = footer['on-click-action'];
		const at = `${path}.on-click-action`;
		if (!isObject(action)) return this.add(at, 'is required');
		if (!isObject(action.payload)) this.add(`${at}.payload`, 'is required (an object)');
		if (last) {
			if (action.name !== 'complete')
				this.add(`${at}.name`, 'must be "complete" on the last screen');
		} else if (action.name !== 'navigate') {
			this.add(`${at}.name`, 'must be "navigate" on every screen but the last');
		} else {
			const next = isObject(action.next) ? action.next.name : undefined;
			const ids = all.map((s) => (isObject(s) ? s.id : undefined));
			if (!nonEmptyString(next)) this.add(`${at}.next.name`, 'is required (the next screen id)');
			else if (!ids.includes(next) || next === screen.id)
				this.add(`${at}.next.name`, `must name another screen (got ${next})`);
		}
		if (isObject(action.payload)) this.payload(action.payload, `${at}.payload`, screen);
	}

	/** `${form.x}` must be an input of this screen; `${screen.ID.form.x}` one of an earlier screen. */
	private payload(payload: Json, path: string, screen: ScreenInfo): void {
		for (const [key, value] of Object.entries(payload)) {
			if (typeof value !== 'string') continue;
			for (const match of value.matchAll(REFERENCE)) {
				const problem = this.reference(match[1], screen);
				if (problem) this.add(`${path}.${key}`, problem);
			}
		}
	}

	private reference(expression: string, screen: ScreenInfo): string | null {
		const own = /^form\.([A-Za-z0-9_]+)$/.exec(expression);
		if (own)
			return screen.inputs.has(own[1]) ? null : `\${form.${own[1]}} names no input on this screen`;
		const earlier = /^screen\.([A-Za-z_]+)\.form\.([A-Za-z0-9_]+)$/.exec(expression);
		if (earlier) {
			const target = this.screens.find((s) => s.id === earlier[1]);
			if (!target) return `\${screen.${earlier[1]}...} must name an earlier screen`;
			return target.inputs.has(earlier[2])
				? null
				: `screen ${earlier[1]} has no input ${earlier[2]}`;
		}
		if (/^data\.[A-Za-z0-9_]+$/.test(expression)) return null;
		return `\${${expression}} must be \${form.field} or \${screen.<SCREEN_ID>.form.field}`;
	}
}

export function checkFormDefinition(definition: unknown): FormProblem[] {
	if (!isObject(definition)) return [{ path: 'definition', message: 'must be a flow JSON object' }];
	const checker = new Checker();
	checker.definition(definition);
	return checker.problems;
}
