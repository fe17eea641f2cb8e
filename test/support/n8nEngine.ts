/**
 * Runs real workflows in n8n's own engine (`WorkflowExecute` from n8n-core), with a node-type
 * registry holding our nodes and a credentials helper that serves test credentials and applies
 * each credential type's own `authenticate`. n8n-nodes-base is not installed, so the harness
 * brings a pass-through start node and puts it on the execution stack with the input items.
 */
import { ExecutionLifecycleHooks, LoadOptionsContext, WorkflowExecute } from 'n8n-core';
import { commonPollingParameters } from 'n8n-core/dist/nodes-loader/constants';
import { clearProcessedData, installProcessedDataStore } from './processedData';
import {
	createRunExecutionData,
	ICredentialsHelper,
	Workflow,
	type ExecutionError,
	type IAuthenticateGeneric,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type ICredentials,
	type IConnections,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type INode,
	type INodeExecutionData,
	type INodeProperties,
	type INodeType,
	type INodeTypes,
	type IRun,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

export const START_NODE_TYPE = 'harness.start';

/** Emits its input items unchanged: stands in for the Manual Trigger of n8n-nodes-base. */
class HarnessStart implements INodeType {
	description = {
		displayName: 'Start',
		name: START_NODE_TYPE,
		group: ['input'],
		version: 1,
		description: 'Test start node',
		defaults: { name: 'Start' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData().map((item, index) => ({ ...item, pairedItem: { item: index } }))];
	}
}

const asLoaded = new WeakMap<INodeType, INodeType>();

/**
 * A node type as n8n's loader gives it (n8n-core's DirectoryLoader applySpecialNodeParameters): a
 * polling node gets n8n's Poll Times parameter first. The node's own description is not touched.
 */
function loaded(type: INodeType): INodeType {
	if (!type.description.polling) return type;
	let wrapped = asLoaded.get(type);
	if (!wrapped) {
		const properties = [...commonPollingParameters, ...type.description.properties];
		wrapped = Object.assign(Object.create(type) as INodeType, {
			description: { ...type.description, properties },
		});
		asLoaded.set(type, wrapped);
	}
	return wrapped;
}

/** Node types by name; `types` stays the one record looked up, so a test can swap a type in. */
export function createNodeTypes(types: Record<string, INodeType>): INodeTypes {
	const all = Object.assign(types, { [START_NODE_TYPE]: new HarnessStart() });
	const lookup = (name: string): INodeType => {
		const type = all[name];
		if (!type) throw new Error(`Unknown node type in test workflow: ${name}`);
		return loaded(type);
	};
	return {
		getByName: lookup,
		getByNameAndVersion: (name) => lookup(name),
		getKnownTypes: () => Object.fromEntries(Object.keys(all).map((name) => [name, {}])),
	};
}

/** Serves credentials by type name and authenticates requests the way n8n's CLI helper does. */
export class TestCredentialsHelper extends ICredentialsHelper {
	private readonly types = new Map<string, ICredentialType>();
	private readonly data = new Map<string, ICredentialDataDecryptedObject>();

	constructor(types: ICredentialType[]) {
		super();
		for (const type of types) this.types.set(type.name, type);
	}

	set(typeName: string, data: ICredentialDataDecryptedObject): void {
		this.data.set(typeName, data);
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const authenticate = this.types.get(typeName)?.authenticate;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		if (!authenticate) return requestOptions;
		return applyGeneric(authenticate, credentials, requestOptions, workflow, node);
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('Encrypted credentials are not used in the test engine');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: unknown,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.data.get(type);
		if (!data) throw new Error(`No test credentials of type ${type}`);
		return { ...data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.types.get(type)?.properties ?? [];
	}
}

function applyGeneric(
	generic: IAuthenticateGeneric,
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
	workflow?: Workflow,
	node?: INode,
): IHttpRequestOptions {
	const resolve = (value: unknown): unknown =>
		typeof value === 'string' && value.startsWith('=') && workflow && node
			? workflow.expression.getSimpleParameterValue(node, value, 'internal', {
					$credentials: credentials,
				})
			: value;
	const resolved: IDataObject = {};
	for (const [section, entries] of Object.entries(generic.properties)) {
		resolved[section] = Object.fromEntries(
			Object.entries(entries as IDataObject).map(([key, value]) => [key, resolve(value)]),
		);
	}
	return {
		...requestOptions,
		headers: { ...requestOptions.headers, ...(resolved.headers as IDataObject) },
		qs: { ...requestOptions.qs, ...(resolved.qs as IDataObject) },
	};
}

export function createAdditionalData(
	credentialsHelper: ICredentialsHelper,
	extra: Partial<IWorkflowExecuteAdditionalData> = {},
): IWorkflowExecuteAdditionalData {
	const unused = async (): Promise<never> => {
		throw new Error('Not available in the test engine');
	};
	return {
		credentialsHelper,
		executeWorkflow: unused,
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: unused,
		logAiEvent: () => {},
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		formBaseUrl: 'http://localhost:5678/form',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		formTestBaseUrl: 'http://localhost:5678/form-test',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		mcpBaseUrl: 'http://localhost:5678/mcp',
		mcpTestBaseUrl: 'http://localhost:5678/mcp-test',
		variables: {},
		...extra,
	} as IWorkflowExecuteAdditionalData;
}

export interface TestWorkflow {
	nodes: INode[];
	connections: IConnections;
	staticData?: IDataObject;
	/** n8n's legacy order runs a start node only when its first input has items. */
	executionOrder?: 'v0' | 'v1';
}

export interface EngineRun {
	run: IRun;
	/** The workflow-level error, when the run failed. */
	error?: ExecutionError;
	/** Output items of the node's last run; `connection` ai_tool for a tool node run for an agent. */
	output(
		nodeName: string,
		outputIndex?: number,
		connection?: 'main' | 'ai_tool',
	): INodeExecutionData[];
	/** Error recorded on the node's last run, if any. */
	nodeError(nodeName: string): ExecutionError | undefined;
	staticData: IDataObject;
}

export interface EngineOptions {
	nodeTypes: Record<string, INodeType>;
	credentialTypes: ICredentialType[];
	credentials?: Record<string, ICredentialDataDecryptedObject>;
}

export class N8nEngine {
	readonly nodeTypes: INodeTypes;
	private readonly types: Record<string, INodeType>;
	readonly credentialsHelper: TestCredentialsHelper;
	/** Where this n8n's resume links start (`$execution.resumeUrl`); n8n's default when unset. */
	webhookWaitingBaseUrl: string | undefined;
	private runs = 0;

	constructor(options: EngineOptions) {
		// A new engine is a new n8n: its database has recorded no run yet.
		installProcessedDataStore();
		clearProcessedData();
		this.types = { ...options.nodeTypes };
		this.nodeTypes = createNodeTypes(this.types);
		this.credentialsHelper = new TestCredentialsHelper(options.credentialTypes);
		for (const [type, data] of Object.entries(options.credentials ?? {})) {
			this.credentialsHelper.set(type, data);
		}
	}

	/**
	 * n8n started again on the same database: `type` is the node's code loaded afresh (after
	 * `vi.resetModules()`), so whatever the old one kept in memory is gone.
	 */
	restartWith(name: string, type: INodeType): void {
		this.types[name] = type;
	}

	workflow(definition: TestWorkflow): Workflow {
		return new Workflow({
			id: 'wf-test',
			name: 'Test workflow',
			nodes: definition.nodes,
			connections: definition.connections,
			active: false,
			nodeTypes: this.nodeTypes,
			staticData: definition.staticData ?? {},
			settings: { executionOrder: definition.executionOrder ?? 'v1' },
		});
	}

	/**
	 * Runs `definition` starting at `start.node`, which receives `start.items` as its input (or
	 * `start.main`, one list per output, for a webhook node: n8n passes its workflow data on as is).
	 */
	async run(
		definition: TestWorkflow,
		start: { node: string; items: INodeExecutionData[]; main?: INodeExecutionData[][] },
		mode: WorkflowExecuteMode = 'manual',
	): Promise<EngineRun> {
		const workflow = this.workflow(definition);
		const startNode = workflow.getNode(start.node);
		if (!startNode) throw new Error(`No node named ${start.node}`);

		let staticData: IDataObject = {};
		// Each run its own id, as n8n gives: resume links of waiting runs must not collide.
		const executionId = `exec-test-${++this.runs}`;
		const finished = new Promise<IRun>((resolve) => {
			const hooks = new ExecutionLifecycleHooks(mode, executionId, {
				id: workflow.id,
				name: workflow.name ?? '',
				active: false,
				activeVersionId: null,
				isArchived: false,
				createdAt: new Date(),
				updatedAt: new Date(),
				nodes: definition.nodes,
				connections: definition.connections,
			});
			hooks.addHandler('workflowExecuteAfter', (run, newStaticData) => {
				staticData = newStaticData;
				resolve(run);
			});
			const additionalData = createAdditionalData(this.credentialsHelper, {
				hooks,
				executionId,
				...(this.webhookWaitingBaseUrl
					? { webhookWaitingBaseUrl: this.webhookWaitingBaseUrl }
					: {}),
			});
			const runData = createRunExecutionData({
				executionData: {
					nodeExecutionStack: [
						{ node: startNode, data: { main: start.main ?? [start.items] }, source: null },
					],
				},
			});
			void new WorkflowExecute(additionalData, mode, runData).processRunExecutionData(workflow);
		});
		const run = await finished;
		const runData = run.data.resultData.runData;
		const lastRun = (nodeName: string) => runData[nodeName]?.at(-1);
		return {
			run,
			error: run.data.resultData.error,
			output: (nodeName, outputIndex = 0, connection = 'main') =>
				lastRun(nodeName)?.data?.[connection]?.[outputIndex] ?? [],
			nodeError: (nodeName) => lastRun(nodeName)?.error,
			staticData,
		};
	}

	/** A real n8n-core context for `methods.loadOptions` / `resourceMapping` of one node. */
	loadOptionsContext(definition: TestWorkflow, nodeName: string): LoadOptionsContext {
		const workflow = this.workflow(definition);
		const node = workflow.getNode(nodeName);
		if (!node) throw new Error(`No node named ${nodeName}`);
		const additionalData = createAdditionalData(this.credentialsHelper, {
			currentNodeParameters: node.parameters,
		});
		return new LoadOptionsContext(workflow, node, additionalData, '');
	}
}
