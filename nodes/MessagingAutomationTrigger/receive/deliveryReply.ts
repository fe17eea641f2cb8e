import type { IDataObject, INodeExecutionData, IWebhookResponseData } from 'n8n-workflow';

/** n8n's response object, as far as the trigger writes to it. */
export interface RawResponse {
	writeHead(status: number, headers: Record<string, string>): unknown;
	end(body: string): unknown;
	/** Node's ServerResponse events: how n8n answered a run's delivery it answers itself. */
	once?(event: 'finish' | 'close', listener: () => void): unknown;
	statusCode?: number;
}

/**
 * Where a delivery's answer stands: nobody answered yet; answered here (200, or a refusal); handed
 * back to the service with 503 to be sent again; or left to n8n, which answers once it recorded
 * the run.
 */
export type ReplyState = 'open' | 'answered' | 'handedBack' | 'leftToN8n';

/**
 * The one answer of one delivery. Every path of the trigger answers through it (the early
 * refusals, a held delivery's desk, the turn, the hand-over), so a delivery is answered at most
 * once however many of them decide at the same moment: a hand-back after a 200 would reach nobody
 * and lose the burst, a 200 after a hand-back would answer a retry the service already sent.
 */
export class DeliveryReply {
	private current: ReplyState = 'open';
	private readonly onBack: Array<() => void> = [];
	private ended?: boolean;
	private readonly onEnd: Array<(recorded: boolean) => void> = [];

	constructor(private readonly response: RawResponse) {}

	get state(): ReplyState {
		return this.current;
	}

	/** Answered here (or handed back): n8n must not answer it again. */
	get answered(): boolean {
		return this.current === 'answered' || this.current === 'handedBack';
	}

	/**
	 * What a hand-back must do besides answering: forget the event's dedupe entry, so the service's
	 * copy is not taken for one already seen; count the hand-back (handBacks.ts).
	 */
	onHandBack(action: () => void): void {
		this.onBack.push(action);
	}

	/**
	 * Whether the delivery ended answered 2xx: by this node, or by n8n once it recorded the run it
	 * was handed (n8n 2.x answers only then). False when it went back, n8n answered otherwise (it
	 * could not record the run), or the connection closed unanswered: then nobody knows, and a
	 * delivery waiting on this one's run (conversationDesk.ts) does not count on it.
	 */
	async recorded(): Promise<boolean> {
		if (this.ended !== undefined) return this.ended;
		return await new Promise<boolean>((resolve) => this.onEnd.push(resolve));
	}

	private end(recorded: boolean): void {
		if (this.ended !== undefined) return;
		this.ended = recorded;
		for (const resolve of this.onEnd.splice(0)) resolve(recorded);
	}

	/** Answers now with `status`; later answers do nothing. */
	answer(status: number, body: IDataObject): void {
		if (this.current !== 'open') return;
		this.current = 'answered';
		this.write(status, body);
		this.end(status < 300);
	}

	/** Answers 200: the delivery is received and settled. */
	received(body: IDataObject = { received: true }): void {
		this.answer(200, body);
	}

	/**
	 * Answers 503, so the service sends the delivery again; false, doing nothing, when it was
	 * answered already. Once: a delivery that went back is settled later, when a copy of it may be
	 * held already.
	 */
	handBack(): boolean {
		if (this.current !== 'open') return false;
		for (const action of this.onBack) action();
		this.current = 'handedBack';
		this.write(503, { received: false, reason: 'not settled in time; send again' });
		this.end(false);
		return true;
	}

	/**
	 * What the handler returns to n8n, from the delivery's final state. Answered here: n8n writes
	 * nothing (`noWebhookResponse`), and saves the static data the handler wrote (the dedupe
	 * window) when the response callback fires, which it does with either answer. Still open with a
	 * run: left to n8n, which answers 200 once it recorded the run (n8n 2.x; 1.x as the run starts),
	 * so a stop before that leaves the burst to the service's retry.
	 */
	result(workflowData?: INodeExecutionData[][]): IWebhookResponseData {
		if (this.current === 'open' && workflowData) {
			this.current = 'leftToN8n';
			this.watchN8nAnswer();
			return { webhookResponse: { received: true }, workflowData };
		}
		this.received();
		return workflowData ? { noWebhookResponse: true, workflowData } : { noWebhookResponse: true };
	}

	/** n8n's own answer of the run's delivery: 2xx once it recorded the run; anything else, or none. */
	private watchN8nAnswer(): void {
		const response = this.response;
		if (!response.once) return this.end(false);
		response.once('finish', () => this.end((response.statusCode ?? 500) < 300));
		response.once('close', () => this.end(false));
	}

	private write(status: number, body: IDataObject): void {
		this.response.writeHead(status, { 'Content-Type': 'application/json' });
		this.response.end(JSON.stringify(body));
	}
}
