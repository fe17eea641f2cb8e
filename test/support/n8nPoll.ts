/**
 * Hosts a poll node the way n8n's CLI does (packages/core active-workflow-triggers and the CLI's
 * trigger-execution-context.factory, 2.40), with n8n-core's own PollContext:
 * - activation builds the Workflow from the saved static data and ONE PollContext, polls once at
 *   once (n8n's "testing" poll, whose error fails the activation) and saves static data after it;
 * - each later poll uses that same context and workflow (n8n keeps them for the activation);
 * - a poll that returns items "emits": static data is saved when changed, then the items run in
 *   WorkflowExecute, mode 'trigger', the poll node as start node (its execute() runs first).
 * Poll times are the test's: it calls `poll()`.
 */
import { PollContext } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	IPollFunctions,
	Workflow,
} from 'n8n-workflow';

import { createAdditionalData, type N8nEngine, type TestWorkflow } from './n8nEngine';

const clone = (data: IDataObject): IDataObject => JSON.parse(JSON.stringify(data)) as IDataObject;

export class N8nPollHost {
	/** Static data as the database holds it. */
	savedStaticData: IDataObject = {};
	/** Each run a poll started: the poll node's output as its step passed it on. */
	readonly executions: INodeExecutionData[][] = [];
	/** What the node logged with warn, in order. */
	readonly warnings: string[] = [];
	private active?: { workflow: Workflow; context: IPollFunctions };
	private listening = false;

	constructor(
		private readonly engine: N8nEngine,
		private readonly definition: TestWorkflow,
		private readonly nodeName: string,
	) {}

	private node(workflow: Workflow): INode {
		return workflow.getNode(this.nodeName) as INode;
	}

	async activate(): Promise<void> {
		const workflow = this.engine.workflow({
			...this.definition,
			staticData: clone(this.savedStaticData),
		});
		const node = this.node(workflow);
		const context = new PollContext(
			workflow,
			node,
			createAdditionalData(this.engine.credentialsHelper),
			'trigger',
			'activate',
			() => {},
			() => {},
			undefined,
			undefined,
			() => workflow.getStaticData('node', node),
		);
		if (!this.listening) {
			// n8n's one logger (every node's): its warnings from here on are this host's to read too.
			const logger = context.logger;
			const warn = logger.warn.bind(logger);
			logger.warn = (message, meta) => {
				this.warnings.push(message);
				warn(message, meta);
			};
			this.listening = true;
		}
		this.active = { workflow, context };
		await this.poll();
		this.save(workflow);
	}

	deactivate(): void {
		this.active = undefined;
	}

	/** One poll; its items (if any) run. Returns how many items the poll emitted. */
	async poll(): Promise<number> {
		if (!this.active) throw new Error('The poll node is not active');
		const { workflow, context } = this.active;
		const type = this.engine.nodeTypes.getByNameAndVersion(
			this.node(workflow).type,
			this.node(workflow).typeVersion,
		);
		const data = await (
			type.poll as (this: IPollFunctions) => Promise<INodeExecutionData[][] | null>
		).call(context);
		if (data === null) return 0;
		this.save(workflow);
		const run = await this.engine.run(
			{ ...this.definition, staticData: clone(this.savedStaticData) },
			{ node: this.nodeName, items: data[0] ?? [], main: data },
			'trigger',
		);
		this.executions.push(run.output(this.nodeName));
		return data.flat().length;
	}

	private save(workflow: Workflow): void {
		if (workflow.staticData.__dataChanged !== true) return;
		this.savedStaticData = clone(workflow.staticData);
		workflow.staticData.__dataChanged = false;
	}
}
