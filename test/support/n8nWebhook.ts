/**
 * Hosts a webhook trigger the way n8n's CLI does, with n8n-core's own contexts: `HookContext` for
 * checkExists/create/delete and `WebhookContext` for `webhook()`, over a real `Workflow`, behind a
 * real loopback HTTP server. What the CLI adds around them is reproduced from its source
 * (packages/cli/src/webhooks, 2.x) and kept small:
 * - production static data lives in a "database" copy: each request builds a new Workflow over a
 *   fresh copy of it, and it is saved when the response callback fires and the flag says changed
 *   (LiveWebhooks); activation and deactivation save it after the hooks (ActiveWorkflowManager);
 * - a test URL starts from empty static data, keeps the copy made after `create` and is removed
 *   after its first execution (TestWebhooks); hooks run with `isTest` set;
 * - the body is read into `rawBody` before the node runs and parsed for JSON (parseBody);
 * - `noWebhookResponse` means the node answered; otherwise the host answers, and workflow data
 *   runs in WorkflowExecute with the trigger as start node (webhook-helpers).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { HookContext, WebhookContext } from 'n8n-core';
import {
	NodeHelpers,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type INodeParameters,
	type INode,
	type INodeExecutionData,
	type INodeType,
	type IWebhookData,
	type IWebhookDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
	type IWorkflowExecuteAdditionalData,
	type Workflow,
	type WorkflowActivateMode,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { createAdditionalData, type N8nEngine, type TestWorkflow } from './n8nEngine';

export type WebhookKind = 'production' | 'test';

export interface ReceivedRequest {
	kind: WebhookKind;
	status: number;
	body: unknown;
	/** Whether the node wrote the answer itself or left it to n8n. */
	answeredBy: 'node' | 'n8n';
}

export interface Execution {
	kind: WebhookKind;
	/** Output of the trigger node in the finished run (its first output). */
	items: INodeExecutionData[];
	/** Every output of the trigger node, in order. */
	outputs: INodeExecutionData[][];
}

type HookName = 'checkExists' | 'create' | 'delete';

const clone = (data: IDataObject): IDataObject => JSON.parse(JSON.stringify(data)) as IDataObject;

export class N8nWebhookHost {
	/** Production static data as the database holds it. */
	savedStaticData: IDataObject = {};
	/**
	 * A database round trip on each side of a request, as n8n has: static data is read when a
	 * request arrives, then the load takes this long; a save snapshots the data, then lands this
	 * much later, the last save winning. 0 keeps both synchronous.
	 */
	staticDataGapMs = 0;
	/** n8n 1.x: its webhook context has no `getWebhookResourceUrl`. */
	withoutResourceUrl = false;
	/** n8n's waiting-webhook base (Send and Wait's links); this host's own unless a test moves it. */
	waitingBaseUrl: string | undefined;
	/** n8n's public address (WEBHOOK_URL) for production URLs; this host's own unless a test moves it. */
	publicOrigin: string | undefined;
	readonly requests: ReceivedRequest[] = [];
	readonly executions: Execution[] = [];
	private testStaticData: IDataObject | undefined;
	private stopsAfterRecording = 0;
	private recordFailures = 0;
	private server: Server | undefined;
	private origin = '';
	private readonly inflight = new Set<Promise<void>>();
	private readonly takeUpWaiters: Array<{ match: (body: string) => boolean; resolve: () => void }> =
		[];

	constructor(
		private readonly engine: N8nEngine,
		private readonly definition: TestWorkflow,
		private readonly triggerName: string,
	) {}

	async start(): Promise<void> {
		this.server = createServer((req, res) => {
			const handled = this.handle(req, res).finally(() => this.inflight.delete(handled));
			this.inflight.add(handled);
		});
		await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
		this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	/**
	 * Resolves once the node's `webhook()` has been called for a request whose raw body `match`es,
	 * with no timer or I/O callback run in between: what the node does before its first wait (hold a
	 * grouped delivery, say) has happened, and nothing it would do later. Call it before the request
	 * can arrive.
	 */
	async tookUp(match: (body: string) => boolean): Promise<void> {
		await new Promise<void>((resolve) => this.takeUpWaiters.push({ match, resolve }));
	}

	/** Resolves once every request received so far, and the execution it started, has finished. */
	async settled(): Promise<void> {
		while (this.inflight.size > 0) await Promise.all([...this.inflight]);
	}

	async stop(): Promise<void> {
		this.server?.closeAllConnections();
		await new Promise<void>((resolve) =>
			this.server ? this.server.close(() => resolve()) : resolve(),
		);
	}

	url(kind: WebhookKind): string {
		const node = this.node();
		return NodeHelpers.getNodeWebhookUrl(this.baseUrl(kind), 'wf-test', node, 'webhook', false);
	}

	/**
	 * What n8n does on activation (production) or "Listen for test event" (test); `activation` as
	 * n8n names why (a person publishing, n8n's start, ...).
	 */
	async activate(kind: WebhookKind, activation?: WorkflowActivateMode): Promise<void> {
		const workflow = this.workflowFor(kind);
		const mode = kind === 'test' ? 'manual' : 'trigger';
		if (!(await this.runHook(workflow, kind, 'checkExists', mode, activation)))
			await this.runHook(workflow, kind, 'create', mode, activation);
		this.afterHooks(workflow, kind);
	}

	async checkExists(kind: WebhookKind): Promise<boolean> {
		return await this.runHook(this.workflowFor(kind), kind, 'checkExists');
	}

	async deactivate(kind: WebhookKind): Promise<void> {
		const workflow = this.workflowFor(kind);
		// Both managers delete with mode `internal`; only the webhook data says test or not.
		await this.runHook(workflow, kind, 'delete', 'internal', 'update');
		if (kind === 'test') this.testStaticData = undefined;
		else this.save(workflow);
	}

	/** The user edits the node: same node and webhook id, new parameters. */
	setParameters(parameters: INodeParameters): void {
		this.node().parameters = parameters;
	}

	setCredentials(type: string, data: ICredentialDataDecryptedObject): void {
		this.engine.credentialsHelper.set(type, data);
	}

	get testListening(): boolean {
		return this.testStaticData !== undefined;
	}

	private node(): INode {
		const node = this.definition.nodes.find((candidate) => candidate.name === this.triggerName);
		if (!node) throw new Error(`No node named ${this.triggerName}`);
		return node;
	}

	private baseUrl(kind: WebhookKind): string {
		const origin = kind === 'production' ? (this.publicOrigin ?? this.origin) : this.origin;
		return `${origin}/${kind === 'test' ? 'webhook-test' : 'webhook'}`;
	}

	private additionalData(
		extra: Partial<IWorkflowExecuteAdditionalData> = {},
	): IWorkflowExecuteAdditionalData {
		return createAdditionalData(this.engine.credentialsHelper, {
			webhookBaseUrl: this.baseUrl('production'),
			webhookTestBaseUrl: this.baseUrl('test'),
			webhookWaitingBaseUrl: this.waitingBaseUrl ?? `${this.origin}/webhook-waiting`,
			...extra,
		});
	}

	/** A Workflow as the CLI builds it per call: test data from the registration, else from the DB. */
	private workflowFor(kind: WebhookKind): Workflow {
		if (kind === 'production')
			return this.engine.workflow({ ...this.definition, staticData: clone(this.savedStaticData) });
		const workflow = this.engine.workflow({ ...this.definition, staticData: {} });
		if (this.testStaticData) workflow.setTestStaticData(this.testStaticData);
		return workflow;
	}

	private webhookData(
		kind: WebhookKind,
		additionalData: IWorkflowExecuteAdditionalData,
	): IWebhookData {
		const node = this.node();
		const description = this.engine.nodeTypes.getByNameAndVersion(
			node.type,
			node.typeVersion,
		).description;
		const webhookDescription = description.webhooks?.[0];
		if (!webhookDescription) throw new Error(`${node.type} declares no webhook`);
		return {
			httpMethod: 'POST',
			node: node.name,
			path: NodeHelpers.getNodeWebhookPath('wf-test', node, 'webhook', false),
			webhookDescription,
			workflowId: 'wf-test',
			workflowExecuteAdditionalData: additionalData,
			webhookId: node.webhookId,
			isTest: kind === 'test',
		};
	}

	private async runHook(
		workflow: Workflow,
		kind: WebhookKind,
		hook: HookName,
		mode: WorkflowExecuteMode = kind === 'test' ? 'manual' : 'trigger',
		activation: WorkflowActivateMode = kind === 'test' ? 'manual' : 'activate',
	): Promise<boolean> {
		const node = workflow.getNode(this.triggerName) as INode;
		const nodeType = this.engine.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		const method = nodeType.webhookMethods?.default?.[hook];
		if (!method) throw new Error(`${node.type} has no webhookMethods.default.${hook}`);
		const additionalData = this.additionalData();
		const webhookData = this.webhookData(kind, additionalData);
		const context = new HookContext(workflow, node, additionalData, mode, activation, webhookData);
		return await method.call(context);
	}

	private afterHooks(workflow: Workflow, kind: WebhookKind): void {
		if (kind === 'test') this.testStaticData = workflow.staticData;
		else this.save(workflow);
	}

	private save(workflow: Workflow, gapMs = 0): void {
		if (workflow.staticData.__dataChanged !== true) return;
		const snapshot = clone(workflow.staticData);
		workflow.staticData.__dataChanged = false;
		if (gapMs === 0) this.savedStaticData = snapshot;
		else void delay(gapMs).then(() => (this.savedStaticData = snapshot));
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const kind: WebhookKind = req.url?.startsWith('/webhook-test/') ? 'test' : 'production';
		const path = new URL(this.url(kind)).pathname;
		if (req.url !== path || req.method !== 'POST' || (kind === 'test' && !this.testListening)) {
			return this.reply(kind, res, 404, { message: 'The requested webhook is not registered.' });
		}
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const request = Object.assign(req, {
			rawBody: Buffer.concat(chunks),
			readRawBody: async () => {},
		});
		if (req.headers['content-type']?.startsWith('application/json')) {
			try {
				Object.assign(request, { body: JSON.parse(request.rawBody.toString('utf8')) as unknown });
			} catch {
				return this.reply(kind, res, 422, { message: 'Failed to parse request body' });
			}
		}
		await this.runWebhook(kind, request, captureAnswer(res));
	}

	private async runWebhook(
		kind: WebhookKind,
		req: IncomingMessage,
		res: AnswerCapture,
	): Promise<void> {
		const workflow = this.workflowFor(kind);
		if (this.staticDataGapMs > 0) await delay(this.staticDataGapMs);
		const node = workflow.getNode(this.triggerName) as INode;
		const nodeType = this.engine.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		const additionalData = this.additionalData({
			httpRequest: req as unknown as IWorkflowExecuteAdditionalData['httpRequest'],
			httpResponse: res as unknown as IWorkflowExecuteAdditionalData['httpResponse'],
		});
		const mode: WorkflowExecuteMode = kind === 'test' ? 'manual' : 'webhook';
		const context = new WebhookContext(
			workflow,
			node,
			additionalData,
			mode,
			this.webhookData(kind, additionalData),
			[],
			null,
		);
		if (this.withoutResourceUrl)
			Object.defineProperty(context, 'getWebhookResourceUrl', { value: undefined });
		let result;
		try {
			const answering = (
				nodeType.webhook as (
					this: IWebhookFunctions,
				) => ReturnType<NonNullable<typeof nodeType.webhook>>
			).call(context);
			this.notifyTakenUp((req as IncomingMessage & { rawBody: Buffer }).rawBody);
			result = await answering;
		} catch (error) {
			return this.reply(kind, res, 500, {
				message: 'Workflow Webhook Error: Workflow could not be started!',
				cause: String(error),
			});
		}
		// LiveWebhooks saves static data in the response callback: before the run when the node
		// answered itself or there is nothing to run; otherwise (n8n 2.x) once the run is recorded.
		// The runner loads static data from the database for the run, a copy apart from this one.
		const callback = () => {
			if (kind === 'production') this.save(workflow, this.staticDataGapMs);
		};
		if (result.noWebhookResponse) {
			this.recordAnswered(kind, res);
			callback();
		} else if (!result.workflowData) {
			this.reply(
				kind,
				res,
				200,
				(result.webhookResponse as IDataObject) ?? { message: 'Webhook call received' },
			);
			callback();
		}
		if (!result.workflowData) return;
		if (this.recordFailures > 0) {
			this.recordFailures--;
			callback();
			if (!result.noWebhookResponse)
				this.reply(kind, res, 500, { message: 'Workflow could not be started!' });
			return;
		}

		const run = await this.engine.run(
			{ ...this.definition, staticData: clone(this.savedStaticData) },
			{
				node: this.triggerName,
				items: result.workflowData[0] ?? [],
				main: result.workflowData,
			},
			mode,
		);
		this.executions.push({
			kind,
			items: run.output(this.triggerName),
			outputs: result.workflowData.map((_, index) => run.output(this.triggerName, index)),
		});
		if (!result.noWebhookResponse && this.stopsAfterRecording > 0) {
			this.stopsAfterRecording--;
			res.destroy();
		} else if (!result.noWebhookResponse) {
			this.reply(kind, res, 200, onReceivedBody(nodeType.description.webhooks?.[0], result));
			callback();
		}
		if (kind === 'test') await this.deactivate('test');
	}

	private notifyTakenUp(rawBody: Buffer): void {
		if (this.takeUpWaiters.length === 0) return;
		const body = rawBody.toString('utf8');
		for (const waiter of this.takeUpWaiters.filter((candidate) => candidate.match(body))) {
			this.takeUpWaiters.splice(this.takeUpWaiters.indexOf(waiter), 1);
			waiter.resolve();
		}
	}

	/** n8n started again on the same database, the trigger's code loaded afresh (its memory gone). */
	restart(triggerType: INodeType): void {
		this.engine.restartWith(this.node().type, triggerType);
	}

	/**
	 * The next `count` runs n8n would answer itself are recorded, then n8n stops before it answers:
	 * the connection drops and the handler's static data is not saved, as with a SIGKILL there.
	 */
	stopAfterRecording(count = 1): void {
		this.stopsAfterRecording += count;
	}

	/**
	 * The next `count` runs cannot be recorded (a locked database, or Redis down in queue mode): n8n
	 * runs nothing and answers the delivery 500 unless the node answered it already; the handler's
	 * static data is saved as usual.
	 */
	failToRecord(count = 1): void {
		this.recordFailures += count;
	}

	private reply(
		kind: WebhookKind,
		res: ServerResponse,
		status: number,
		body: IDataObject | string,
	): void {
		res.writeHead(status, { 'Content-Type': 'application/json' });
		res.end(typeof body === 'string' ? body : JSON.stringify(body));
		this.requests.push({ kind, status, body, answeredBy: 'n8n' });
	}

	/** The node wrote the answer itself; record what it wrote. */
	private recordAnswered(kind: WebhookKind, res: AnswerCapture): void {
		const text = res.answeredBody ?? '';
		this.requests.push({
			kind,
			status: res.statusCode,
			body: text ? (JSON.parse(text) as unknown) : undefined,
			answeredBy: 'node',
		});
	}
}

type AnswerCapture = ServerResponse & { answeredBody?: string };

/**
 * What n8n sends for a run it answers itself (responseMode onReceived): the description's
 * `responseData` (default "firstEntryJson", sent as that text), else the handler's
 * `webhookResponse`, else its own sentence.
 */
function onReceivedBody(
	description: IWebhookDescription | undefined,
	result: IWebhookResponseData,
): IDataObject | string {
	const responseData = description?.responseData ?? 'firstEntryJson';
	if (responseData) return String(responseData);
	return (result.webhookResponse as IDataObject) ?? { message: 'Workflow was started' };
}

/** Keeps a copy of what the node writes with `end`, for assertions. */
function captureAnswer(res: ServerResponse): AnswerCapture {
	const capture = res as AnswerCapture;
	const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
	capture.end = ((...args: unknown[]) => {
		if (typeof args[0] === 'string' || Buffer.isBuffer(args[0]))
			capture.answeredBody = String(args[0]);
		return end(...args);
	}) as ServerResponse['end'];
	return capture;
}
