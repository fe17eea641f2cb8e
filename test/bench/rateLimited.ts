import type { INodeExecutionData } from 'n8n-workflow';

import {
	nodeEngine,
	rateLimitOptions,
	runNode,
	spanMs,
	toolParameters,
	warmUp,
	writeLimitMinimumMs,
} from './nodeRunner';
import type { SandboxProcess } from './sandboxProcess';
import { duration, ratio } from './stats';
import type { MeasuredRow } from './table';

/*
 * Row 2: 600 Business template sends, one per item, through the action node in n8n's engine.
 * The write limit (120 per sliding minute) is then the only thing that should set the pace: the
 * node's pacer must keep the calls under it without a single 429 and without leaving slots idle.
 * The sandbox clock runs faster and the node's budget window is shortened to match, so the
 * four minutes the limit imposes take a fraction of that.
 */

const SENDS = 600;
// Ten times faster keeps the limit, not the machine, in charge: at x30 a window lasts 2 s, about what
// 120 sends through n8n take on this two-core machine when it is busy, so the row would time the CPU.
const SPEED = 10;
const TARGET = 1.05;

function items(count: number, first = 0): INodeExecutionData[] {
	return Array.from({ length: count }, (_, offset) => first + offset).map((index) => ({
		json: {
			phone: `4915100${String(index).padStart(6, '0')}`,
			name: `Customer ${index}`,
			order: String(1000 + index),
		},
	}));
}

export async function rateLimitedRow(sandbox: SandboxProcess): Promise<MeasuredRow> {
	const parameters = toolParameters('send_message', {
		inputMode: 'fields',
		channel: 'business',
		sendTo: 'phoneNumber',
		phoneNumber: '={{ $json.phone }}',
		messageType: 'templateName',
		templateName: 'order_update',
		templateLanguage: 'en',
		templateParameters: '={{ [$json.name, $json.order, "shipped"] }}',
		recipientOptInConfirmed: true,
		options: rateLimitOptions(SPEED),
	});
	await sandbox.setSpeed(SPEED);
	try {
		const engine = nodeEngine(sandbox);
		await warmUp(engine, sandbox, parameters, items(1, SENDS));
		const result = await runNode(engine, parameters, items(SENDS));
		if (result.error) throw new Error(`the node failed: ${result.error}`);
		const sends = (await sandbox.calls()).filter((call) => call.tool === 'send_message');
		const accepted = sends.filter((call) => call.status === 200 && !call.replayed).length;
		if (accepted !== SENDS) throw new Error(`${accepted} of ${SENDS} sends were accepted`);
		const rejected429 = sends.filter((call) => call.status === 429).length;
		const minimumMs = writeLimitMinimumMs(SENDS, SPEED);
		const relative = result.wallMs / minimumMs;
		// By the sandbox clock: when the first send of the last window arrived, against when the
		// limit lets that window open. Per-call time drops out, so this is the pacer alone.
		const lastWindow = sends.slice(Math.floor((SENDS - 1) / 120) * 120);
		const opened = spanMs([sends[0], lastWindow[0]]) / SPEED;
		const tailMs = spanMs(lastWindow) / SPEED;
		const outsideMs = result.wallMs - spanMs(sends) / SPEED;
		return {
			id: '2',
			title: `Rate-limit-bound work: ${SENDS} sends through the action node in WorkflowExecute, wall time vs the limit's minimum`,
			// Three decimals: the figure sits close to its target.
			figure: `${ratio(relative, 3)} (${duration(result.wallMs)}), ${rejected429} x 429`,
			anchor: `minimum ${duration(minimumMs)} (${Math.floor((SENDS - 1) / 120)} full windows of 120 writes)`,
			target: `<= ${TARGET.toFixed(2)}x and 0 x 429`,
			met: relative <= TARGET && rejected429 === 0,
			notes: [
				`Pacing alone: the last window's first send reached the sandbox ${duration(opened)} after the first send (${ratio(opened / minimumMs, 3)} of the minimum). That window's ${lastWindow.length} sends then took ${duration(tailMs)} one after another (${duration(tailMs / lastWindow.length)} per send through n8n on this machine), and ${duration(outsideMs)} went before the first send and after the last (engine start, tool listing, last answer). At the real clock the same extra time would be ${ratio((result.wallMs - minimumMs + minimumMs * SPEED) / (minimumMs * SPEED), 3)} of the ${duration(minimumMs * SPEED)} minimum.`,
				`Sandbox clock x${SPEED}, node Rate Limit Budget 120 writes per ${60 / SPEED} s; the minimum is when the limit lets the last send start, so the time the final window's sends take counts against the figure. One send_message per item (Business template); ${sends.length} send requests in all.`,
			],
		};
	} finally {
		await sandbox.setSpeed(1);
	}
}
