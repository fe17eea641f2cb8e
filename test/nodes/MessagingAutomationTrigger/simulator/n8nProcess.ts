/**
 * One n8n webhook process for the simulator: the trigger's code as one module instance (its
 * memory: held desks, claims, kept reads, clock estimates), called as n8n's webhook machinery calls
 * it (test/support/n8nWebhook.ts describes what the CLI does), without HTTP:
 * - static data: each delivery works on a copy of what the database holds, saved when n8n answers
 *   (the last save wins across processes); a stopped process saves nothing;
 * - a run the handler hands over is recorded by n8n (or not: n8n answers 500), then n8n answers
 *   200 unless the trigger answered already, and the run's first step is the trigger's execute()
 *   (runClaim.ts), with n8n's processed-data store shared by every process;
 * - a stopped process answers nothing more and reads nothing more: its deliveries time out;
 * - with the Catch-Up node in the case, the first process also polls (pollProcess.ts), with the
 *   contexts here: a run its poll emits starts with the Catch-Up node's execute() (mode 'trigger').
 */
import { DataDeduplicationService } from 'n8n-core';
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeType,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import {
	clone,
	groupingErrorOf,
	messageIdsOf,
	noop,
	notePassedOn,
	parameter,
	SimResponse,
} from './n8nContext';
import type { ProcessNodes } from './processPool';
import { credentialFor, QUIET_LOGGER, type Delivery, type ServiceModel } from './service';
import { runsText, trace, traceLogger, traceStore } from './trace';
import { WAITING_BASE, type WaitingExecutions } from './waitingExecutions';

/** What every process of one case shares: the workflow, its database, the service. */
export interface SharedWorld {
	workflowId: string;
	parameters: IDataObject;
	/** Production static data as the database holds it. */
	database: { staticData: IDataObject };
	service: ServiceModel;
	apiKey: string;
	/** Whether n8n fails to record the n-th run handed to it (database locked, Redis down). */
	recordFails: (index: number) => boolean;
	/** Whether n8n's processed-data store fails a claim now (an outage: a locked database, say). */
	claimFails: () => boolean;
	/** First steps of recorded runs still going on. */
	firstSteps: number;
	/** Whether n8n is stopped right after recording the n-th run, before answering it. */
	stopsAfterRecording: (index: number) => boolean;
	runsHandedOver: number;
	runs: RecordedRun[];
	/** Send and Wait's waiting executions, with Pass Answers on. */
	waiting?: WaitingExecutions;
	/** Runs whose delivery the trigger answered 2xx first, and that n8n then failed to record. */
	answeredUnrecorded: string[][];
	/** What the Catch-Up poll threw (error executions of the workflow), and failed activations. */
	pollErrors: string[];
}

export interface RecordedRun {
	/** Process incarnation that recorded it. */
	process: string;
	/** Messages of the run's item, as handed over, then as its first step passed them on. */
	messageIds: string[];
	/** What the trigger's first step passed on: nothing for a copy of a recorded run. */
	passedOn: boolean;
	/** Why its first step failed the execution (it passed nothing on). */
	failed?: string;
	groupingError?: string;
	at: number;
	/** A run the Catch-Up poll emitted (pollProcess.ts), not a delivery's. */
	polled?: boolean;
	/** n8n stopped before its first step ended: n8n lists the execution as crashed, its Retry runs it. */
	crashed?: boolean;
	/** Messages whose `message|<id>` key its first step claimed first. */
	claimed?: string[];
	/** The outputs its item came out of (0 Bot, 1 Paused Chats with Human Takeover on). */
	outputs?: number[];
	/** Its item's `takeover.paused`, with Human Takeover on: null when the pause was not checked. */
	paused?: boolean | null;
}

export interface Answer {
	status: number;
	/** Answered by the trigger itself, before n8n recorded any run. */
	byNode: boolean;
}

export class N8nProcess {
	alive = true;
	/** Runs whose first step (the trigger's execute(): claims, answer offers) has not returned yet. */
	firstSteps = 0;
	/** Those runs: a stop marks them crashed. */
	private readonly stepping = new Set<RecordedRun>();
	readonly node: INode;

	constructor(
		readonly name: string,
		readonly nodes: ProcessNodes,
		private readonly world: SharedWorld,
		private readonly now: () => number,
	) {
		this.node = {
			id: 'trigger-1',
			name: 'Trigger',
			type: 'messagingAutomationTrigger',
			typeVersion: 1,
			position: [0, 0],
			webhookId: `hook-${world.workflowId}`,
			parameters: world.parameters as INode['parameters'],
		};
	}

	/** The process is killed: nothing it was doing answers, saves or reads any more. */
	stop(): void {
		trace(`${this.name} STOPPED`);
		this.alive = false;
		for (const run of this.stepping) run.crashed = true;
	}

	private get url(): string {
		return `http://n8n.sim/webhook/${this.world.workflowId}/webhook`;
	}

	/** One delivery, as n8n's LiveWebhooks handles it; resolves with the answer, or never once stopped. */
	async deliver(delivery: Delivery): Promise<Answer | undefined> {
		const staticData = clone(this.world.database.staticData);
		let written: number | undefined;
		const response = new SimResponse((status) => void (written ??= status));
		let result: IWebhookResponseData;
		try {
			result = await (
				this.nodes.trigger.webhook as (this: IWebhookFunctions) => Promise<IWebhookResponseData>
			).call(this.webhookContext(delivery, staticData, response));
		} catch {
			return this.alive ? { status: 500, byNode: false } : undefined;
		}
		if (!this.alive) return undefined;
		const save = () => void (this.world.database.staticData = clone(staticData));
		if (!result.workflowData) {
			save();
			return { status: written ?? 200, byNode: written !== undefined };
		}
		const index = this.world.runsHandedOver++;
		if (this.world.recordFails(index)) {
			// n8n could not create the execution: the webhook answers 500 unless the node answered.
			if (written !== undefined && written < 300)
				this.world.answeredUnrecorded.push(result.workflowData.flat().flatMap(messageIdsOf));
			if (written === undefined) response.n8nAnswers(500);
			return { status: written ?? 500, byNode: written !== undefined };
		}
		// Each item is the run of one burst: a caught-up burst's (caughtUp.ts) is a run of its own.
		const runs = result.workflowData.flat().map(
			(item): RecordedRun => ({
				process: this.name,
				messageIds: messageIdsOf(item),
				passedOn: false,
				groupingError: groupingErrorOf(item),
				at: this.now(),
			}),
		);
		this.world.runs.push(...runs);
		trace(() => `${this.name} recorded run(s) ${runsText(runs)}`);
		const answer = { status: written ?? 200, byNode: written !== undefined };
		if (this.world.stopsAfterRecording(index)) this.stop();
		else save();
		// n8n 2.40.7 answers once WorkflowRunner.run has created the execution (webhook-helpers.js,
		// onReceived), while the run's first step goes on (answer offers may take minutes, a claim
		// may wait out a store fault); a process stopped by then never finishes it.
		this.world.firstSteps++;
		const context = this.executeContext(result.workflowData, this.node, 'webhook', runs);
		void this.firstStep(this.nodes.trigger, context, runs).finally(() => this.world.firstSteps--);
		if (!this.alive) {
			response.close();
			return undefined;
		}
		if (written === undefined) response.n8nAnswers(answer.status);
		return answer;
	}

	/**
	 * The start node's execute() as the run's first step (the trigger's, or the Catch-Up's for a run
	 * its poll emitted: runClaim.ts), and what each run passed on; resolves with the error that
	 * failed the execution, if one did.
	 */
	async firstStep(
		type: INodeType,
		context: IExecuteFunctions,
		runs: RecordedRun[],
	): Promise<Error | undefined> {
		this.firstSteps++;
		for (const run of runs) {
			if (!this.alive) run.crashed = true;
			this.stepping.add(run);
		}
		try {
			let outputs: INodeExecutionData[][];
			try {
				outputs = await (
					type.execute as (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>
				).call(context);
			} catch (error) {
				// A throw fails the execution, unless n8n stopped first: the run then never ended.
				trace(() => `${this.name} step of ${runsText(runs)} throws ${(error as Error).message}`);
				if (!this.alive) return undefined;
				for (const run of runs) run.failed = (error as Error).message;
				return error as Error;
			}
			trace(
				() =>
					`${this.name} step of ${runsText(runs)} ends, passing on ${runsText(outputs.flat().map((item) => ({ messageIds: messageIdsOf(item) })))}${this.alive ? '' : ' (n8n stopped: it never ends)'}`,
			);
			if (!this.alive) return undefined;
			notePassedOn(runs, outputs);
			return undefined;
		} finally {
			for (const run of runs) this.stepping.delete(run);
			this.firstSteps--;
		}
	}

	private webhookContext(
		delivery: Delivery,
		staticData: IDataObject,
		response: SimResponse,
	): IWebhookFunctions {
		const headers = Object.fromEntries(
			Object.entries(delivery.headers).map(([k, v]) => [k.toLowerCase(), v]),
		);
		const request = {
			rawBody: Buffer.from(delivery.body),
			headers: { ...headers, 'content-type': 'application/json' },
			rawHeaders: Object.entries(headers).flat(),
			body: JSON.parse(delivery.body) as unknown,
		};
		return {
			...this.commonContext(),
			// A webhook's parameters take no item index.
			getNodeParameter: (name: string, fallback?: unknown) =>
				parameter(this.world.parameters, name, fallback),
			getRequestObject: () => request,
			getResponseObject: () => response,
			getWorkflowStaticData: (type: string) =>
				(staticData[type === 'node' ? `node:${this.node.name}` : 'global'] ??= {}) as IDataObject,
			getWebhookResourceUrl: () => this.url,
			getNodeWebhookUrl: () => this.url,
			getMode: () => 'webhook',
			getBodyData: () => request.body,
			// `$execution.resumeUrl`: this n8n's waiting-webhook base and an execution id.
			evaluateExpression: () => `${WAITING_BASE}/exec-current`,
			getHeaderData: () => request.headers,
		} as unknown as IWebhookFunctions;
	}

	/**
	 * A run's first step: the trigger's (mode 'webhook'), or the Catch-Up node's of a run its poll
	 * emitted (`node`, mode 'trigger'), each by its own parameters.
	 */
	executeContext(
		workflowData: INodeExecutionData[][],
		node: INode = this.node,
		mode: 'webhook' | 'trigger' = 'webhook',
		/** The runs it is the first step of: the messages it claims are noted on them. */
		runs: readonly RecordedRun[] = [],
	): IExecuteFunctions {
		const contextData = { node, workflow: { id: this.world.workflowId, active: true } };
		/** n8n's processed-data helper for `items`, every process's store shared. */
		const onItems =
			(call: 'checkProcessedAndRecord' | 'removeProcessed') =>
			async (items: string[], scope: 'node', options: IDataObject) => {
				// A stopped process claims nothing more. Its code fails here rather than parks: the claims
				// queue is the module's (claimStore.ts), and a later case's process reuses the module.
				if (!this.alive) throw new Error('n8n stopped: this process runs nothing more');
				if (this.world.claimFails()) throw new Error('SQLITE_BUSY: database is locked');
				const result = await DataDeduplicationService.getInstance()[call](
					items,
					scope,
					contextData as never,
					options as never,
				);
				traceStore(this.name, call, items, result);
				if (result) noteClaims(runs, result.new);
				return result;
			};
		const common = this.commonContext(node, mode === 'trigger' ? 'poll' : 'trigger');
		// The execution's copy, as n8n loaded the workflow for it (the Catch-Up reads the trigger's
		// shared settings there); nothing a first step writes is saved.
		const staticData = clone(this.world.database.staticData);
		return {
			...common,
			getWorkflowStaticData: (type: string) =>
				(staticData[type === 'node' ? `node:${node.name}` : 'global'] ??= {}) as IDataObject,
			getNodeParameter: (name: string, _item: number, fallback?: unknown) =>
				parameter(node.parameters, name, fallback),
			getMode: () => mode,
			getInputData: (index = 0) => workflowData[index] ?? [],
			customData: { set: noop, setAll: noop, get: noop, getAll: () => ({}) },
			helpers: {
				// The run's first step offers its answers (answerPass.ts).
				...common.helpers,
				checkProcessedAndRecord: onItems('checkProcessedAndRecord'),
				// A run takes back the claims it made only to ask (claimStore.ts).
				removeProcessed: onItems('removeProcessed'),
				getProcessedDataCount: async (scope: 'node', options: IDataObject) =>
					await DataDeduplicationService.getInstance().getProcessedDataCount(
						scope,
						contextData as never,
						options as never,
					),
			},
		} as unknown as IExecuteFunctions;
	}

	/** What every context of this process has; `by`: whose reads (the poll's are counted apart). */
	commonContext(node: INode = this.node, by: 'trigger' | 'poll' = 'trigger') {
		const world = this.world;
		const alive = () => this.alive;
		return {
			logger: traceLogger(this.name) ?? QUIET_LOGGER,
			getNode: () => node,
			getWorkflow: () => ({ id: world.workflowId, name: 'Simulated', active: true }),
			getCredentials: async () => credentialFor(world.apiKey),
			helpers: {
				httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) =>
					// A stopped process's read never comes back: its code stays parked.
					alive() ? await world.service.request(options, by) : await new Promise(noop),
				// The trigger's offer to a question's link: this n8n's own waiting webhook.
				httpRequest: async (options: IHttpRequestOptions) => {
					if (!alive() || !world.waiting) return await new Promise(noop);
					return await world.waiting.request(this.nodes.sendAndWait, options, by);
				},
			},
		};
	}
}

/** Notes on `runs` the messages whose `<trigger>|message|<id>` key is among `fresh`. */
function noteClaims(runs: readonly RecordedRun[], fresh: ReadonlyArray<string | number>): void {
	for (const key of fresh) {
		const id = /\|message\|(.+)$/.exec(String(key))?.[1];
		for (const run of runs) if (id && run.messageIds.includes(id)) (run.claimed ??= []).push(id);
	}
}
