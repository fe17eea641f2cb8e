import type {
	ExecutionError,
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	ResourceMapperField,
} from 'n8n-workflow';

import { MessagingAutomationApi } from '../../../credentials/MessagingAutomationApi.credentials';
import { MessagingAutomation } from '../../../nodes/MessagingAutomation/MessagingAutomation.node';
import { catalogueFields } from '../../../nodes/MessagingAutomation/actions/toolGroups';
import { findTool } from '../../../nodes/shared/catalogue';
import { startSandbox, type Persona, type RecordedCall, type SandboxHandle } from '../../sandbox';
import type { SandboxOptions } from '../../sandbox';
import type { LoadOptionsContext } from 'n8n-core';
import { afterAll, beforeAll, beforeEach } from 'vitest';

import { N8nEngine, START_NODE_TYPE } from '../../support/n8nEngine';
import { MODEL_CALL_TYPE, ModelCall } from './modelCall';

/** The node as n8n registers it, and as n8n's AI Agent sees it (a `…Tool` type). */
export const NODE_TYPE = 'messagingAutomation';
export const AGENT_TOOL_TYPE = 'messagingAutomationTool';

export interface NodeSpec {
	name?: string;
	id?: string;
	parameters: INodeParameters;
	continueOnFail?: boolean;
	type?: string;
}

export interface NodeRun {
	/** Output items of the (first) action node. */
	output: INodeExecutionData[];
	json: IDataObject[];
	/** The node's error when the run stopped on it. */
	error?: ExecutionError;
	/** Sandbox calls made during this run. */
	calls: RecordedCall[];
	outputOf(nodeName: string): INodeExecutionData[];
	/** Set when the run stopped to wait (Send and Wait). */
	waitTill?: Date;
}

export interface Harness {
	sandbox: SandboxHandle;
	engine: N8nEngine;
	/** Which sandbox key the credential carries; `owner` until changed. */
	usePersona(persona: Persona): void;
	/** A real n8n-core load-options context for a node with `parameters` (editor look-ups). */
	loadOptions(parameters: INodeParameters): LoadOptionsContext;
	/** Runs Start → node (or Start → each node, side by side) with `items` as the input. */
	run(
		nodes: NodeSpec | NodeSpec[],
		items?: Array<IDataObject | INodeExecutionData>,
	): Promise<NodeRun>;
	stop(): Promise<void>;
}

/** The `index`th action node of a harness run, as n8n stores it (Send and Wait's webhook reads it too). */
export function actionNode(spec: NodeSpec, index = 0): INode {
	return {
		id: spec.id ?? `node-${index + 1}`,
		name: spec.name ?? (index === 0 ? 'Messaging' : `Messaging ${index + 1}`),
		type: spec.type ?? NODE_TYPE,
		typeVersion: 1,
		position: [200, index * 200],
		parameters: spec.parameters,
		credentials: { messagingAutomationApi: { id: 'cred-1', name: 'Sandbox' } },
		...(spec.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
	};
}

function toItem(item: IDataObject | INodeExecutionData): INodeExecutionData {
	return 'json' in item && typeof item.json === 'object'
		? (item as INodeExecutionData)
		: { json: item as IDataObject };
}

export async function startHarness(options: SandboxOptions = {}): Promise<Harness> {
	const sandbox = await startSandbox(options);
	const node = new MessagingAutomation();
	const engine = new N8nEngine({
		// n8n's synthetic tool type: the same node whose type name ends in `Tool`, which `@tool` display options read.
		nodeTypes: {
			[NODE_TYPE]: node,
			[AGENT_TOOL_TYPE]: Object.create(node, {
				description: { value: { ...node.description, name: AGENT_TOOL_TYPE } },
			}),
			[MODEL_CALL_TYPE]: new ModelCall(),
		},
		credentialTypes: [new MessagingAutomationApi()],
	});
	const usePersona = (persona: Persona) =>
		engine.credentialsHelper.set('messagingAutomationApi', {
			apiKey: sandbox.keys[persona],
			baseUrl: `${sandbox.url}/`,
			authScheme: 'bearer',
		});
	usePersona('owner');

	const run: Harness['run'] = async (specs, items = [{}]) => {
		const list = Array.isArray(specs) ? specs : [specs];
		const nodes: INode[] = [
			{
				id: 'start',
				name: 'Start',
				type: START_NODE_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			...list.map(actionNode),
		];
		const connections: IConnections = {
			Start: {
				main: [
					nodes.slice(1).map((target) => ({ node: target.name, type: 'main' as const, index: 0 })),
				],
			},
		};
		const before = sandbox.calls().length;
		const result = await engine.run(
			{ nodes, connections },
			{ node: 'Start', items: items.map(toItem) },
		);
		const first = nodes[1].name;
		const output = result.output(first);
		return {
			output,
			json: output.map((item) => item.json),
			error: result.nodeError(first) ?? result.error,
			calls: sandbox.calls().slice(before),
			outputOf: (name) => result.output(name),
			waitTill: result.run.waitTill ?? undefined,
		};
	};

	const loadOptions: Harness['loadOptions'] = (parameters) =>
		engine.loadOptionsContext(
			{
				nodes: [
					{
						id: 'node-1',
						name: 'Messaging',
						type: NODE_TYPE,
						typeVersion: 1,
						position: [0, 0],
						parameters,
						credentials: { messagingAutomationApi: { id: 'cred-1', name: 'Sandbox' } },
					},
				],
				connections: {},
			},
			'Messaging',
		);

	return { sandbox, engine, usePersona, loadOptions, run, stop: () => sandbox.stop() };
}

/**
 * A sandbox and engine for one test file: started before its tests, stopped after them, and by
 * default reset (with the owner key) before each test. The returned object stands for the harness
 * once it has started.
 */
export function useHarness(options: SandboxOptions = {}, { resetEach = true } = {}): Harness {
	let current: Harness | undefined;
	beforeAll(async () => {
		current = await startHarness(options);
	});
	afterAll(async () => {
		await current?.stop();
	});
	if (resetEach) {
		beforeEach(() => {
			current?.sandbox.reset();
			current?.usePersona('owner');
		});
	}
	return new Proxy({} as Harness, {
		get: (_, property: keyof Harness) => {
			if (!current) throw new Error('The harness starts in beforeAll; use it inside tests');
			return current[property];
		},
	});
}

/**
 * Parameters of a catalogue tool in the "Fields" mode, as the editor stores them: required and
 * primary fields at the top level, a field of a choice there with its selector set, optional
 * ones in Additional Fields.
 */
export function fieldsParameters(
	tool: string,
	input: IDataObject,
	rest: INodeParameters = {},
): INodeParameters {
	const definition = findTool(tool);
	if (!definition) throw new Error(`${tool} is not in the catalogue`);
	const upFront = new Set([
		...catalogueFields(definition)
			.filter((field) => field.required)
			.map((field) => field.name),
		...(definition.layout?.primary ?? []),
	]);
	const top: INodeParameters = {};
	const additionalFields: IDataObject = {};
	for (const [name, value] of Object.entries(input)) {
		const choice = definition.layout?.choices?.find((candidate) =>
			candidate.options.some((option) => option.field === name || option.with?.includes(name)),
		);
		const option = choice?.options.find(
			(candidate) => candidate.field === name || candidate.with?.includes(name),
		);
		if (choice && option) top[choice.parameter] = option.field;
		if (upFront.has(name) || choice) top[name] = value as INodeParameters[string];
		else additionalFields[name] = value;
	}
	return {
		...operationOf(tool),
		inputMode: 'fields',
		...top,
		additionalFields,
		...rest,
	} as INodeParameters;
}

/** Resource and operation of a catalogue tool, as the editor stores them. */
export function operationOf(tool: string): { resource: string; operation: string } {
	const definition = findTool(tool);
	if (!definition) throw new Error(`${tool} is not in the catalogue`);
	return { resource: definition.resource, operation: definition.operation.value };
}

/** A resource-mapper value as the editor stores it, for fields the node's own method returned. */
export function mapperValue(
	fields: ResourceMapperField[],
	value: IDataObject,
	mappingMode = 'defineBelow',
): INodeParameters {
	return {
		mappingMode,
		value,
		matchingColumns: [],
		schema: fields,
		attemptToConvertTypes: false,
		convertFieldsToString: false,
	} as unknown as INodeParameters;
}

/** A Business template send to `$json.phone`, one per item: a write every run may repeat without limits of the QR number. */
export function templateSendParameters(options: IDataObject): INodeParameters {
	return fieldsParameters(
		'send_message',
		{
			channel: 'business',
			phoneNumber: '={{ $json.phone }}',
			templateName: 'order_update',
			templateLanguage: 'en',
			templateParameters: '={{ [$json.name, String($json.order), "shipped"] }}',
			recipientOptInConfirmed: true,
		},
		{ options } as INodeParameters,
	);
}
