export const FAULT_KINDS = [
	'dropAfterCommit',
	'delay',
	'toolError503',
	'toolError422',
	'outcomeUnknown',
	'notConnected',
	'rateLimited',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultSpec {
	tool: string;
	kind: FaultKind;
	/** How many of the next calls of the tool it hits (default 1). */
	times?: number;
	/** `delay`: real milliseconds to hold the response after the effect is committed. */
	delayMs?: number;
	/** `outcomeUnknown`: whether the effect happened behind the 409 (default true). */
	commit?: boolean;
}

export interface ActiveFault extends Required<FaultSpec> {
	remaining: number;
}

/** Faults armed for the next N calls of a tool that reach execution (past auth, limits and validation). */
export class Faults {
	private list: ActiveFault[] = [];

	add(spec: FaultSpec): ActiveFault {
		if (!FAULT_KINDS.includes(spec.kind))
			throw new Error(`unknown fault kind ${String(spec.kind)}`);
		const times = spec.times ?? 1;
		const fault: ActiveFault = {
			tool: spec.tool,
			kind: spec.kind,
			times,
			delayMs: spec.delayMs ?? 0,
			commit: spec.commit ?? true,
			remaining: times,
		};
		this.list.push(fault);
		return fault;
	}

	/** Consumes and returns the first armed fault for the tool, if any. */
	take(tool: string): ActiveFault | undefined {
		const fault = this.list.find((f) => f.tool === tool && f.remaining > 0);
		if (!fault) return undefined;
		fault.remaining -= 1;
		this.list = this.list.filter((f) => f.remaining > 0);
		return fault;
	}

	active(): ActiveFault[] {
		return this.list.map((f) => ({ ...f }));
	}

	clear(): void {
		this.list = [];
	}
}
