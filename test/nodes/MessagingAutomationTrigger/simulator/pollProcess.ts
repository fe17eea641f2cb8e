/**
 * The Catch-Up node beside the trigger, in the n8n process that polls (test/support/n8nPoll.ts
 * describes what n8n's CLI does): its activation runs the trigger's activation hooks, which share
 * the trigger's settings in the workflow's static data (catchUp/sharedSettings.ts), then polls
 * once at once with ONE poll context that every later poll of the activation reuses (the poll keeps
 * its memory by that object, pollMemory.ts). The poll works on the static data as the activation
 * loaded it, saved whole (the last save wins) after the first poll and when it emits with a change.
 * Each run it emits is recorded, and its first step is the Catch-Up node's execute() in mode
 * 'trigger' (its claim, and the answer offer an item carries); its `done` settles with the run, as
 * n8n's donePromise does. A stopped process polls no more, and its runs never end.
 */
import type {
	IDataObject,
	IHookFunctions,
	INode,
	INodeExecutionData,
	IPollFunctions,
	IRun,
} from 'n8n-workflow';

import { clone, groupingErrorOf, messageIdsOf, parameter } from './n8nContext';
import type { N8nProcess, RecordedRun, SharedWorld } from './n8nProcess';
import { runsText, trace } from './trace';
import { WAITING_BASE } from './waitingExecutions';

/** n8n's Poll Times: every minute. */
export const POLL_EVERY_MS = 60_000;

/** n8n-core's helper of that name (n8n-workflow declares only its type). */
interface Deferred<T> {
	promise: Promise<T>;
	resolve: (value: T) => void;
	reject: (error: Error) => void;
}

function createDeferredPromise<T>(): Deferred<T> {
	const deferred = {} as Deferred<T>;
	deferred.promise = new Promise<T>((resolve, reject) =>
		Object.assign(deferred, { resolve, reject }),
	);
	return deferred;
}

/** The Catch-Up node of the simulated workflow: its only field is a notice. */
const CATCH_UP_NODE: INode = {
	id: 'catch-up-1',
	name: 'Catch-Up',
	type: 'messagingAutomationCatchUp',
	typeVersion: 1,
	position: [0, 200],
	parameters: {},
};

export class CatchUpPoller {
	/** The workflow's static data as this activation loaded it. */
	private staticData: IDataObject = {};
	private saved = '';
	private context?: IPollFunctions;
	private polling = false;

	constructor(
		readonly process: N8nProcess,
		private readonly world: SharedWorld,
		private readonly now: () => number,
	) {}

	/**
	 * n8n activates the workflow in this process (at its start: mode 'init'): the trigger's hooks
	 * first, as n8n 1.x adds webhooks before pollers, then the poll's test, its first poll.
	 */
	async activate(): Promise<void> {
		const hook = this.hookContext();
		const hooks = this.process.nodes.trigger.webhookMethods?.default;
		try {
			if (hooks && !(await hooks.checkExists.call(hook))) await hooks.create.call(hook);
		} catch (error) {
			// The activation failed: this process runs no poll (the outcome says why).
			this.world.pollErrors.push(`activation: ${(error as Error).message}`);
			return;
		}
		this.staticData = clone(this.world.database.staticData);
		this.saved = JSON.stringify(this.staticData);
		this.context = this.pollContext();
		await this.poll();
		this.save();
	}

	/** One poll at its time; a poll still going on then lets the time pass. */
	async poll(): Promise<void> {
		const context = this.context;
		if (!context || this.polling || !this.process.alive) return;
		this.polling = true;
		try {
			const data = await (
				this.process.nodes.catchUp.poll as (
					this: IPollFunctions,
				) => Promise<INodeExecutionData[][] | null>
			).call(context);
			if (data) this.emit(data);
		} catch (error) {
			// An error execution of the workflow (a report, a failed listing): the next poll goes on.
			this.world.pollErrors.push((error as Error).message);
		} finally {
			this.polling = false;
		}
	}

	/** The save n8n makes of the workflow's static data, when it changed: the whole of it. */
	private save(): void {
		const now = JSON.stringify(this.staticData);
		if (!this.process.alive || now === this.saved) return;
		this.saved = now;
		this.world.database.staticData = clone(this.staticData);
	}

	/** n8n's emit: static data saved, the run recorded, then its first step. */
	private emit(data: INodeExecutionData[][], done?: Deferred<IRun | undefined>): void {
		if (!this.process.alive) return;
		this.save();
		const runs = data.flat().map(
			(item): RecordedRun => ({
				process: this.process.name,
				messageIds: messageIdsOf(item),
				passedOn: false,
				groupingError: groupingErrorOf(item),
				at: this.now(),
				polled: true,
			}),
		);
		this.world.runs.push(...runs);
		trace(() => `${this.process.name} poll emitted run(s) ${runsText(runs)}`);
		this.world.firstSteps++;
		const context = this.process.executeContext(data, CATCH_UP_NODE, 'trigger', runs);
		void this.process
			.firstStep(this.process.nodes.catchUp, context, runs)
			// A run whose process stopped never ends: n8n settles nothing.
			.then((error) => this.process.alive && done?.resolve(ranRun(error)))
			.finally(() => this.world.firstSteps--);
	}

	private hookContext(): IHookFunctions {
		const common = this.process.commonContext();
		const data = this.world.database.staticData;
		return {
			...common,
			getNodeParameter: (name: string, fallback?: unknown) =>
				parameter(this.world.parameters, name, fallback),
			// In place: nothing else runs during the hooks, so loading and saving around them is the same.
			getWorkflowStaticData: (type: string) =>
				(data[type === 'node' ? `node:${this.process.node.name}` : 'global'] ??= {}) as IDataObject,
			getMode: () => 'trigger',
			getActivationMode: () => 'init',
			getNodeWebhookUrl: () => `http://n8n.sim/webhook/${this.world.workflowId}/webhook`,
			getWebhookName: () => 'default',
		} as unknown as IHookFunctions;
	}

	private pollContext(): IPollFunctions {
		const common = this.process.commonContext(CATCH_UP_NODE, 'poll');
		return {
			...common,
			getNodeParameter: (name: string, fallback?: unknown) =>
				parameter(CATCH_UP_NODE.parameters, name, fallback),
			getWorkflowStaticData: (type: string) =>
				(this.staticData[type === 'node' ? `node:${CATCH_UP_NODE.name}` : 'global'] ??=
					{}) as IDataObject,
			getMode: () => 'trigger',
			getActivationMode: () => 'init',
			// `$execution.resumeUrl`: this n8n's waiting-webhook base, as in the webhook's context.
			evaluateExpression: () => `${WAITING_BASE}/exec-current`,
			// The settings are shared before the first poll: it never waits for a trigger beside it.
			getChildNodes: () => [],
			getParentNodes: () => [],
			helpers: { ...common.helpers, createDeferredPromise },
			__emit: (
				data: INodeExecutionData[][],
				_response?: unknown,
				done?: Deferred<IRun | undefined>,
			) => this.emit(data, done),
			__emitError: () => undefined,
		} as unknown as IPollFunctions;
	}
}

/** The run as n8n hands it to `done`: the Catch-Up's step, failed or not (pollMemory.ts reads it). */
function ranRun(error: Error | undefined): IRun {
	return {
		data: {
			resultData: { runData: { [CATCH_UP_NODE.name]: [error ? { error } : {}] } },
		},
	} as unknown as IRun;
}
