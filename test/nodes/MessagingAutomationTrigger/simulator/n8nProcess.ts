/**
 * One n8n webhook process for the simulator: the trigger's code as one module instance (its
 * memory: held desks, claims, kept reads, clock estimates), called as n8n's webhook machinery calls
 * it (test/support/n8nWebhook.ts describes what the CLI does), without HTTP:
 * - static data: each delivery works on a copy of what the database holds, saved when n8n answers
 *   (the last save wins across processes); a stopped process saves nothing;
 * - a run the handler hands over is recorded by n8n (or not: n8n answers 500), then n8n answers
 *   200 unless the trigger answered already, and the run's first step is the trigger's execute()
 *   (runClaim.ts), with n8n's processed-data store shared by every process;
 * - a stopped process answers nothing more and reads nothing more: its deliveries time out.
 */
import { DataDeduplicationService } from 'n8n-core';
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import type { ProcessNodes } from './processPool';
import { credentialFor, QUIET_LOGGER, type Delivery, type ServiceModel } from './service';
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
}

export interface Answer {
	status: number;
	/** Answered by the trigger itself, before n8n recorded any run. */
	byNode: boolean;
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const noop = () => undefined;

/** Dotted names (`options.deduplicate`) as n8n resolves them; the fallback when absent. */
function parameter(parameters: IDataObject, name: string, fallback?: unknown): unknown {
	let value: unknown = parameters;
	for (const part of name.split('.')) value = (value as IDataObject | undefined)?.[part];
	return value === undefined ? fallback : value;
}

/** An item's message ids: a grouped run's `message_ids`, else the event's message. */
function messageIdsOf(item: INodeExecutionData | undefined): string[] {
	const json = item?.json ?? {};
	if (Array.isArray(json.message_ids)) return json.message_ids.map(String);
	const message = (json.message ?? json) as IDataObject;
	return typeof message.message_id === 'string'
		? [message.message_id]
		: typeof message.id === 'string'
			? [message.id]
			: [];
}

/**
 * The delivery's response as the trigger sees n8n's (a ServerResponse): what the trigger writes,
 * and n8n's own answer of a run's delivery, once it recorded the run ('finish'), or none ('close').
 */
class SimResponse {
	statusCode?: number;
	private readonly listeners: Array<{ event: string; listener: () => void }> = [];

	constructor(readonly writeHead: (status: number) => void) {}

	end = noop;

	once(event: 'finish' | 'close', listener: () => void): void {
		this.listeners.push({ event, listener });
	}

	n8nAnswers(status: number): void {
		this.statusCode = status;
		this.emit('finish');
	}

	close(): void {
		this.emit('close');
	}

	private emit(event: string): void {
		for (const entry of this.listeners.filter((candidate) => candidate.event === event))
			entry.listener();
	}
}

export class N8nProcess {
	alive = true;
	/** Runs whose first step (the trigger's execute(): claims, answer offers) has not returned yet. */
	firstSteps = 0;
	private readonly node: INode;

	constructor(
		readonly name: string,
		private readonly nodes: ProcessNodes,
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
		this.alive = false;
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
				groupingError: item.json.grouping_error as string | undefined,
				at: this.now(),
			}),
		);
		this.world.runs.push(...runs);
		const answer = { status: written ?? 200, byNode: written !== undefined };
		if (this.world.stopsAfterRecording(index)) this.stop();
		else save();
		// n8n 2.40.7 answers once WorkflowRunner.run has created the execution (webhook-helpers.js,
		// onReceived), while the run's first step goes on (answer offers may take minutes, a claim
		// may wait out a store fault); a process stopped by then never finishes it.
		this.world.firstSteps++;
		void this.firstStep(result.workflowData, runs).finally(() => this.world.firstSteps--);
		if (!this.alive) {
			response.close();
			return undefined;
		}
		if (written === undefined) response.n8nAnswers(answer.status);
		return answer;
	}

	/** The trigger's execute() as the run's first step (runClaim.ts), and what each run passed on. */
	private async firstStep(
		workflowData: INodeExecutionData[][],
		runs: RecordedRun[],
	): Promise<void> {
		this.firstSteps++;
		try {
			let outputs: INodeExecutionData[][];
			try {
				outputs = await (
					this.nodes.trigger.execute as (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>
				).call(this.executeContext(workflowData));
			} catch (error) {
				// A throw fails the execution.
				for (const run of runs) run.failed = (error as Error).message;
				return;
			}
			// A run whose messages an earlier run held passes on only the others.
			const passed = outputs.flat().map(messageIdsOf);
			for (const run of runs) {
				const ids = passed.find(
					(item) => item.length > 0 && item.every((id) => run.messageIds.includes(id)),
				);
				run.passedOn = ids !== undefined;
				if (ids) run.messageIds = ids;
			}
		} finally {
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

	private executeContext(workflowData: INodeExecutionData[][]): IExecuteFunctions {
		const contextData = { node: this.node, workflow: { id: this.world.workflowId, active: true } };
		/** n8n's processed-data helper for `items`, every process's store shared. */
		const onItems =
			(call: 'checkProcessedAndRecord' | 'removeProcessed') =>
			async (items: string[], scope: 'node', options: IDataObject) => {
				if (this.world.claimFails()) throw new Error('SQLITE_BUSY: database is locked');
				return await DataDeduplicationService.getInstance()[call](
					items,
					scope,
					contextData as never,
					options as never,
				);
			};
		const common = this.commonContext();
		return {
			...common,
			getNodeParameter: (name: string, _item: number, fallback?: unknown) =>
				parameter(this.world.parameters, name, fallback),
			getMode: () => 'webhook',
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

	private commonContext() {
		const world = this.world;
		const alive = () => this.alive;
		return {
			logger: QUIET_LOGGER,
			getNode: () => this.node,
			getWorkflow: () => ({ id: world.workflowId, name: 'Simulated', active: true }),
			getCredentials: async () => credentialFor(world.apiKey),
			helpers: {
				httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) =>
					// A stopped process's read never comes back: its code stays parked.
					alive() ? await world.service.request(options) : await new Promise(noop),
				// The trigger's offer to a question's link: this n8n's own waiting webhook.
				httpRequest: async (options: IHttpRequestOptions) => {
					if (!alive() || !world.waiting) return await new Promise(noop);
					return await world.waiting.request(this.nodes.sendAndWait, options);
				},
			},
		};
	}
}
