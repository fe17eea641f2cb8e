import { findTool } from '../../../shared/catalogue';
import { isQrSend } from '../../../shared/catalogue/qrSend';
import { DailyLimitReachedError, formatDuration } from '../../../shared/client/errors';

const AGENT_NOTE =
	'Do not retry today. Messages sent by an AI agent also count against the agent budget of 15 sends per day on this number, besides the 50 API sends per day of the number itself. Tell the user that the message was not sent and when sending works again.';

/**
 * Once the personal (QR) number has used its daily API sends, every further QR send of the run
 * would fail the same way: they are answered from here, without spending calls, and every message
 * says when the counter resets.
 */
export class DailyLimitGate {
	private reached?: { error: DailyLimitReachedError; at: number };
	/** Tools the catalogue does not know that were seen hitting the limit. */
	private readonly limitedTools = new Set<string>();

	constructor(private readonly asAgentTool: boolean) {}

	/** Whether a call of `tool` with `input` is a send from the QR number. */
	isQrSend(tool: string, input: Record<string, unknown>): boolean {
		const definition = findTool(tool);
		return definition ? isQrSend(definition, input) : this.limitedTools.has(tool);
	}

	/** Throws the run's daily-limit error for a QR send once the limit was reached. */
	check(tool: string, input: Record<string, unknown>): void {
		if (!this.reached || !this.isQrSend(tool, input)) return;
		const { error, at } = this.reached;
		const retryAfter =
			error.retryAfter === undefined ? undefined : Math.max(0, error.retryAfter - Math.floor((Date.now() - at) / 1000));
		throw new DailyLimitReachedError(
			this.phrase(`Not sent: the personal (QR) number reached its daily API send limit earlier in this run. ${resetText(retryAfter)}`),
			{ code: error.code, status: error.status, requestId: error.requestId, retryAfter },
		);
	}

	/** Remembers the limit and returns the error as the user (or agent) should read it. */
	record(tool: string, error: DailyLimitReachedError): DailyLimitReachedError {
		this.reached ??= { error, at: Date.now() };
		this.limitedTools.add(tool);
		error.message = this.phrase(error.message);
		return error;
	}

	private phrase(message: string): string {
		return this.asAgentTool ? `Daily send limit reached. ${message} ${AGENT_NOTE}` : message;
	}
}

function resetText(retryAfter: number | undefined): string {
	if (retryAfter === undefined) return 'The counter resets at 00:00 UTC.';
	const resetsAt = new Date(Date.now() + retryAfter * 1000).toISOString();
	return `The counter resets at 00:00 UTC (${resetsAt}, in ${formatDuration(retryAfter)}).`;
}
