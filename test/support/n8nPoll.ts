/**
 * Hosts a poll node the way n8n's CLI does (packages/core active-workflow-triggers and the CLI's
 * trigger-execution-context.factory, 2.40), with n8n-core's own PollContext:
 * - activation builds the Workflow from the saved static data and ONE PollContext, polls once at
 *   once (n8n's "testing" poll, whose error fails the activation) and saves static data after it;
 * - each later poll uses that same context and workflow (n8n keeps them for the activation); one
 *   that throws is an error execution (PollTriggerExecutor's __emitError), kept in `failures`;
 * - a poll that returns items "emits": static data is saved when changed, then the items run in
 *   WorkflowExecute, mode 'trigger', the poll node as start node (its execute() runs first);
 * - a poll may emit itself (`this.__emit(data, undefined, done)`, as the CLI's
 *   trigger-execution-context.factory takes it): the same run, and `done` settles with its IRun.
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
	/** Each run a poll started: the poll node's first output (Bot) as its step passed it on. */
	readonly executions: INodeExecutionData[][] = [];
	/** The same runs' second output, Paused Chats (Human Takeover on). */
	readonly paused: INodeExecutionData[][] = [];
	/** The errors later polls threw, each an error execution in n8n. */
	readonly failures: Error[] = [];
	/** What the node logged with warn, in order. */
	readonly warnings: string[] = [];
	private active?: { workflow: Workflow; context: IPollFunctions };
	private listening = false;
	/** Emitted runs wait for releaseRuns() instead of running during the poll. */
	holdRuns = false;
	private held: Array<() => Promise<void>> = [];
	/** Runs emitted during the current poll. */
	private emitted: Array<Promise<number>> = [];
	/**
	 * What activates beside the poll, on the same Workflow, while its first poll runs: n8n 2.40.7's
	 * publication registers webhook triggers and polls at once (WorkflowTriggerActivator).
	 */
	besideActivation?: (workflow: Workflow) => Promise<void>;

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
			createAdditionalData(
				this.engine.credentialsHelper,
				this.engine.webhookWaitingBaseUrl
					? { webhookWaitingBaseUrl: this.engine.webhookWaitingBaseUrl }
					: {},
			),
			'trigger',
			'activate',
			(data, _response, done) => void this.emitted.push(this.emit(workflow, data, done)),
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
		await Promise.all([this.poll(true), this.besideActivation?.(workflow)]);
		this.save(workflow);
	}

	deactivate(): void {
		this.active = undefined;
	}

	/**
	 * One poll; what it emitted (returned, or emitted itself) runs, and the poll ends once those runs
	 * did. Returns how many items the poll emitted.
	 */
	async poll(testing = false): Promise<number> {
		if (!this.active) throw new Error('The poll node is not active');
		const { workflow, context } = this.active;
		const type = this.engine.nodeTypes.getByNameAndVersion(
			this.node(workflow).type,
			this.node(workflow).typeVersion,
		);
		this.emitted = [];
		let data: INodeExecutionData[][] | null;
		try {
			data = await (
				type.poll as (this: IPollFunctions) => Promise<INodeExecutionData[][] | null>
			).call(context);
		} catch (error) {
			if (testing) throw error;
			this.failures.push(error as Error);
			data = null;
		}
		if (data !== null) this.emitted.push(this.emit(workflow, data));
		const counts = await Promise.all(this.emitted);
		return counts.reduce((sum, count) => sum + count, 0);
	}

	/** n8n's emit: static data saved when changed, then the run; `done` settles with it. */
	private async emit(
		workflow: Workflow,
		data: INodeExecutionData[][],
		done?: Parameters<IPollFunctions['__emit']>[2],
	): Promise<number> {
		this.save(workflow);
		if (this.holdRuns) {
			// The run waits for releaseRuns(), as a run on a busy worker: the poll ends without it.
			this.held.push(async () => void (await this.run(data, done)));
			return data.flat().length;
		}
		await this.run(data, done);
		return data.flat().length;
	}

	/** Fetch Test Event: the poll node's step run by hand on the saved static data; its Bot items. */
	async testRun(): Promise<INodeExecutionData[]> {
		const definition = { ...this.definition, staticData: clone(this.savedStaticData) };
		const run = await this.engine.run(
			definition,
			{ node: this.nodeName, items: [{ json: {} }] },
			'manual',
		);
		return run.output(this.nodeName);
	}

	/** Runs the runs held back, in order, and waits for them. */
	async releaseRuns(): Promise<void> {
		const held = this.held.splice(0);
		for (const run of held) await run();
	}

	private async run(
		data: INodeExecutionData[][],
		done?: Parameters<IPollFunctions['__emit']>[2],
	): Promise<void> {
		try {
			const run = await this.engine.run(
				{ ...this.definition, staticData: clone(this.savedStaticData) },
				{ node: this.nodeName, items: data[0] ?? [], main: data },
				'trigger',
			);
			this.executions.push(run.output(this.nodeName));
			this.paused.push(run.output(this.nodeName, 1));
			done?.resolve(run.run);
		} catch (error) {
			done?.reject(error as Error);
		}
	}

	private save(workflow: Workflow): void {
		if (workflow.staticData.__dataChanged !== true) return;
		this.savedStaticData = clone(workflow.staticData);
		workflow.staticData.__dataChanged = false;
	}
}
