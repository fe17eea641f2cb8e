import { isDeepStrictEqual } from 'node:util';

import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	ItemParameters,
	plainReference,
	readReference,
} from '../../../../../nodes/MessagingAutomation/actions/tool/itemParameters';
import { N8nEngine, START_NODE_TYPE } from '../../../../support/n8nEngine';

/*
 * The fast reading of `={{ $json… }}` against n8n's own: every parameter below is read for every
 * item both by n8n-core's getNodeParameter (expressions evaluated by n8n's engine) and by
 * ItemParameters, inside one real execution.
 */

const ITEMS: IDataObject[] = [
	{
		phoneNumber: '4915200000001',
		n: 42,
		f: 1.5,
		zero: 0,
		neg: -3,
		big: 1e21,
		t: true,
		fl: false,
		nul: null,
		s: '',
		arr: ['a', 1, null, { x: [2] }],
		nested: { a: { b: 'deep' }, list: [{ x: 1 }], 'with space': 'w' },
		emptyObj: {},
		emptyArr: [],
		parameters: ['Customer 1', '10001', 'confirmed'],
	},
	{
		phoneNumber: 4915200000002,
		n: '42',
		nested: { a: null },
		arr: [],
		date: new Date(Date.UTC(2026, 0, 2)),
	},
	{},
];

/** Read straight from the item: plain references to plain JSON, present or missing. */
const FAST = [
	'={{ $json.phoneNumber }}',
	'={{$json.phoneNumber}}',
	'={{ $json.n }}',
	'={{ $json.f }}',
	'={{ $json.zero }}',
	'={{ $json.neg }}',
	'={{ $json.big }}',
	'={{ $json.t }}',
	'={{ $json.fl }}',
	'={{ $json.nul }}',
	'={{ $json.s }}',
	'={{ $json.arr }}',
	'={{ $json.arr[0] }}',
	'={{ $json.arr[2] }}',
	'={{ $json.arr[3].x[0] }}',
	'={{ $json.arr[9] }}',
	'={{ $json.nested.a.b }}',
	'={{ $json["nested"]["a"] }}',
	"={{ $json['nested']['with space'] }}",
	'={{ $json.nested.list[0].x }}',
	'={{ $json.missing }}',
	'={{ $json.emptyObj }}',
	'={{ $json.emptyArr }}',
	'={{ $json.parameters }}',
];

/** Left to n8n: errors on the way, prototype names, non-JSON values, anything but a bare reference. */
const FALLBACK = [
	'={{ $json.missing.deeper }}',
	'={{ $json.nul.x }}',
	'={{ $json.s.length }}',
	'={{ $json.arr.length }}',
	'={{ $json.constructor }}',
	'={{ $json.toString }}',
	'={{ $json.date }}',
	'={{ $json.phoneNumber.toString() }}',
	'={{ $json.n + 1 }}',
	'={{ $json.n }} text',
	'= {{ $json.n }}',
	'={{ $json }}',
	'={{ $json["a}}"] }}',
	'plain text',
	'',
];

const PARAMETERS = [...FAST, ...FALLBACK];
const nameOf = (index: number) => `p${index}`;

type Reading = { value: unknown } | { error: string };

function reading(read: () => unknown): Reading {
	try {
		return { value: read() };
	} catch (error) {
		return { error: (error as Error).message };
	}
}

const probe: INodeType = {
	description: {
		displayName: 'Probe',
		name: 'probe',
		group: ['transform'],
		version: 1,
		description: 'Reads its parameters both ways',
		defaults: { name: 'Probe' },
		inputs: ['main'],
		outputs: ['main'],
		properties: PARAMETERS.map((_, index) => ({
			displayName: nameOf(index),
			name: nameOf(index),
			type: 'string',
			default: '',
		})),
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const fast = new ItemParameters(this);
		const mismatches: IDataObject[] = [];
		let compared = 0;
		for (let itemIndex = 0; itemIndex < this.getInputData().length; itemIndex++) {
			PARAMETERS.forEach((parameter, index) => {
				const n8n = reading(() => this.getNodeParameter(nameOf(index), itemIndex));
				const ours = reading(() => fast.get(nameOf(index), itemIndex));
				compared++;
				if (!isDeepStrictEqual(n8n, ours))
					mismatches.push({
						parameter,
						itemIndex,
						n8n: JSON.stringify(n8n),
						ours: JSON.stringify(ours),
					});
			});
		}
		return [[{ json: { compared, mismatches } }]];
	},
} as unknown as INodeType;

describe('ItemParameters', () => {
	it("reads every parameter for every item exactly as n8n's getNodeParameter does", async () => {
		const engine = new N8nEngine({ nodeTypes: { probe }, credentialTypes: [] });
		const parameters = Object.fromEntries(PARAMETERS.map((value, index) => [nameOf(index), value]));
		const nodes = [
			{
				id: 'start',
				name: 'Start',
				type: START_NODE_TYPE,
				typeVersion: 1,
				position: [0, 0] as [number, number],
				parameters: {},
			},
			{
				id: 'probe',
				name: 'Probe',
				type: 'probe',
				typeVersion: 1,
				position: [200, 0] as [number, number],
				parameters,
			},
		];
		const run = await engine.run(
			{ nodes, connections: { Start: { main: [[{ node: 'Probe', type: 'main', index: 0 }]] } } },
			{ node: 'Start', items: ITEMS.map((json) => ({ json })) },
		);
		expect(run.error).toBeUndefined();
		expect(run.output('Probe')[0]?.json).toEqual({
			compared: PARAMETERS.length * ITEMS.length,
			mismatches: [],
		});
	});

	it('takes the fast path for plain references to plain JSON only', () => {
		for (const parameter of FAST) {
			const steps = plainReference(parameter);
			expect(steps, parameter).toBeDefined();
			expect(readReference(ITEMS[0], steps ?? []), parameter).toBeDefined();
		}
		const fallsBack = FALLBACK.filter((parameter) => {
			const steps = plainReference(parameter);
			return steps === undefined || ITEMS.some((json) => readReference(json, steps) === undefined);
		});
		expect(fallsBack).toEqual(FALLBACK);
		expect(plainReference('={{ $json["a"].b[2] }}')).toEqual(['a', 'b', 2]);
	});

	it('tells whether a second reading gives the first one: not where n8n evaluates per item', () => {
		const raw: Record<string, unknown> = {
			plain: '={{ $json.phoneNumber }}',
			constant: 'Website form',
			clock: '={{ $now.toISO() }}',
		};
		const context = {
			getInputData: () => [],
			getNodeParameter: (name: string, _itemIndex: number, fallback: unknown) =>
				name in raw ? raw[name] : fallback,
		} as unknown as IExecuteFunctions;
		const parameters = new ItemParameters(context);
		expect(parameters.readsAgainAlike(['plain', 'constant', 'unset'])).toBe(true);
		expect(parameters.readsAgainAlike(['plain', 'clock'])).toBe(false);
	});
});
