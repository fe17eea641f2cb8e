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
 * Row 7: Send a message to 500 Business customers, half of whom wrote within the last 24 hours.
 * Each recipient's window is read once (check_recipient_send_options, paced with the reads), then
 * the text goes to those inside it and the template to the others. The writes' limit (120 per
 * sliding minute) sets the pace; the reads must neither add a 429 nor stretch the run past it.
 */

const RECIPIENTS = 500;
const SPEED = 10;
const TARGET = 1.05;

const phone = (index: number) => `4915200${String(index).padStart(6, '0')}`;
/** Every other customer wrote an hour before the run: their window is open. */
const wrote = (index: number) => index % 2 === 0;

function items(count: number, first = 0): INodeExecutionData[] {
	return Array.from({ length: count }, (_, offset) => first + offset).map((index) => ({
		json: { phone: phone(index), name: `Customer ${index}`, order: String(1000 + index) },
	}));
}

async function openWindows(sandbox: SandboxProcess): Promise<void> {
	for (let index = 0; index < RECIPIENTS; index++) {
		if (!wrote(index)) continue;
		await sandbox.control('POST', '/inject/message', {
			channel: 'business',
			from: { phone: phone(index), name: `Customer ${index}` },
			text: 'Where is my order?',
		});
	}
}

export async function businessWindowRow(sandbox: SandboxProcess): Promise<MeasuredRow> {
	const parameters = toolParameters('send_message', {
		inputMode: 'fields',
		channel: 'business',
		sendTo: 'phoneNumber',
		phoneNumber: '={{ $json.phone }}',
		messageType: 'text',
		text: '={{ "Your order " + $json.order + " has shipped" }}',
		outsideWindow: 'template',
		templateName: 'order_update',
		templateLanguage: 'en',
		recipientOptInConfirmed: true,
		templateVariables: 'values',
		templateParameters: '={{ [$json.name, $json.order, "shipped"] }}',
		options: rateLimitOptions(SPEED),
	});
	await sandbox.setSpeed(SPEED);
	try {
		const engine = nodeEngine(sandbox);
		await warmUp(engine, sandbox, parameters, items(1, RECIPIENTS));
		await openWindows(sandbox);
		const result = await runNode(engine, parameters, items(RECIPIENTS));
		if (result.error) throw new Error(`the node failed: ${result.error}`);
		const calls = await sandbox.calls();
		const sends = calls.filter((call) => call.tool === 'send_message' && call.status === 200);
		const checks = calls.filter((call) => call.tool === 'check_recipient_send_options');
		const rejected429 = calls.filter((call) => call.status === 429).length;
		const rightKind = sends.filter((call) => {
			const input = call.input as { phoneNumber?: string; text?: string; templateName?: string };
			const index = Number(input.phoneNumber?.slice(-6));
			return wrote(index) ? input.text !== undefined : input.templateName !== undefined;
		}).length;
		const minimumMs = writeLimitMinimumMs(RECIPIENTS, SPEED);
		const relative = result.wallMs / minimumMs;
		const perRecipient = checks.length / RECIPIENTS;
		return {
			id: '7',
			title: `Business window: Send a message to ${RECIPIENTS} customers, half outside the 24-hour window, wall time vs the write limit's minimum`,
			figure: `${ratio(relative, 3)} (${duration(result.wallMs)}); ${perRecipient.toFixed(2)} checks per recipient; ${rightKind} of ${RECIPIENTS} sent as the right kind; ${rejected429} x 429`,
			anchor: `minimum ${duration(minimumMs)} (${Math.floor((RECIPIENTS - 1) / 120)} full windows of 120 writes; the ${RECIPIENTS} reads fit one window of 600)`,
			target: `<= ${TARGET.toFixed(2)}x, <= 1.0 checks per recipient, all the right kind, 0 x 429`,
			met:
				relative <= TARGET &&
				perRecipient <= 1 &&
				rightKind === RECIPIENTS &&
				sends.length === RECIPIENTS &&
				rejected429 === 0,
			notes: [
				`Sandbox clock x${SPEED}, node Rate Limit Budget 120 writes and 600 reads per ${60 / SPEED} s. Every even-numbered customer wrote just before the run (text), the others never wrote (template order_update with mapped values). Checks and sends alternate item by item; the sends' span by the sandbox clock was ${duration(spanMs(sends) / SPEED)}.`,
			],
		};
	} finally {
		await sandbox.setSpeed(1);
	}
}
