/**
 * What the simulator's n8n contexts share (n8nProcess.ts, pollProcess.ts): parameters as n8n
 * resolves them, an item's message ids, and the delivery's response object.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

export const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
export const noop = () => undefined;

/** Dotted names (`options.deduplicate`) as n8n resolves them; the fallback when absent. */
export function parameter(parameters: IDataObject, name: string, fallback?: unknown): unknown {
	let value: unknown = parameters;
	for (const part of name.split('.')) value = (value as IDataObject | undefined)?.[part];
	return value === undefined ? fallback : value;
}

/** An item's message ids: a grouped run's `message_ids`, else the event's message. */
export function messageIdsOf(item: INodeExecutionData | undefined): string[] {
	const json = item?.json ?? {};
	if (Array.isArray(json.message_ids)) return json.message_ids.map(String);
	const message = (json.message ?? json) as IDataObject;
	return typeof message.message_id === 'string'
		? [message.message_id]
		: typeof message.id === 'string'
			? [message.id]
			: [];
}

/** Why a run's messages were not grouped (its `burst.error`: the read failed, say). */
export function groupingErrorOf(item: INodeExecutionData): string | undefined {
	const error = (item.json.burst as IDataObject | undefined)?.error;
	return typeof error === 'string' ? error : undefined;
}

/** What a run needs noted of its first step: what it passed on, out of which outputs. */
interface PassedRun {
	messageIds: string[];
	passedOn: boolean;
	outputs?: number[];
	paused?: boolean | null;
}

/**
 * Notes on each run what its first step passed on (a run whose messages an earlier run held passes
 * on only the others), the outputs its item came out of, and its item's `takeover.paused`.
 */
export function notePassedOn(runs: readonly PassedRun[], outputs: INodeExecutionData[][]): void {
	const passed = outputs.flatMap((list, output) =>
		list.map((item) => ({ output, ids: messageIdsOf(item), takeover: item.json.takeover })),
	);
	for (const run of runs) {
		const mine = passed.filter(
			({ ids }) => ids.length > 0 && ids.every((id) => run.messageIds.includes(id)),
		);
		run.passedOn = mine.length > 0;
		if (mine.length === 0) continue;
		run.messageIds = mine[0].ids;
		run.outputs = [...new Set(mine.map(({ output }) => output))];
		const takeover = mine[0].takeover as IDataObject | undefined;
		if (takeover) run.paused = takeover.paused as boolean | null;
	}
}

/**
 * The delivery's response as the trigger sees n8n's (a ServerResponse): what the trigger writes,
 * and n8n's own answer of a run's delivery, once it recorded the run ('finish'), or none ('close').
 */
export class SimResponse {
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
