import type { INodeExecutionData } from 'n8n-workflow';

import { MessagingClient } from '../../nodes/shared/client/client';
import { createUndiciTransport } from '../support/undiciTransport';
import {
	nodeEngine,
	rateLimitOptions,
	runNode,
	spanMs,
	toolParameters,
	warmUp,
	writeLimitMinimumMs,
} from './nodeRunner';
import { collectGarbage, type RssWatch, watchRss } from './rssPeak';
import type { SandboxProcess } from './sandboxProcess';
import { duration, megabytes, ratio } from './stats';
import type { MeasuredRow } from './table';

/*
 * Row 3: a campaign of 100,000 recipients, one input item each, uploaded by the action node's
 * batch mode (add_campaign_recipients takes at most 500 per call, so 200 calls is the optimum).
 * The sandbox runs on the real clock: the one window wait the limit forces (200 writes > 120
 * per minute) is then a real minute, and what the node adds to it is seen at its true size.
 */

const RECIPIENTS = 100_000;
const PER_CALL = 500;
const SPEED = 1;
const TARGET = 1.05;

/**
 * The items as a previous node hands them on: parsed from JSON (an HTTP answer, a spreadsheet, a
 * database row, or in queue mode the execution's saved data). Built with template strings alone,
 * V8 would keep their texts as concatenations and flatten each on its first read, inside the
 * measured run: memory real items never cost.
 */
function recipients(count: number, first = 0): INodeExecutionData[] {
	const built = Array.from({ length: count }, (_, offset) => first + offset).map((index) => ({
		json: {
			phoneNumber: `4915200${String(index).padStart(6, '0')}`,
			parameters: [`Customer ${index}`, String(10_000 + index), 'confirmed'],
			consentSource: 'Website newsletter form',
			consentAt: '2026-10-01T09:30:00Z',
		},
	}));
	return JSON.parse(JSON.stringify(built)) as INodeExecutionData[];
}

/**
 * The campaign is set up with another key of the same account: the node's key then has no write in
 * its window but the node's own, as when the node is the key's only user. (Set up with the node's
 * key, that one write made the node's 120th call in the first minute a 429.)
 */
async function createCampaign(sandbox: SandboxProcess): Promise<string> {
	const transport = createUndiciTransport({ baseUrl: sandbox.url, apiKey: sandbox.keys.member });
	try {
		const client = new MessagingClient({ transport, sleep: async () => {} });
		const { data } = await client.callTool<{ campaign_id: string }>('create_campaign', {
			name: 'Bench upload',
			templateName: 'order_update',
			templateLanguage: 'en',
			maxMessages: RECIPIENTS,
		});
		return data.campaign_id;
	} finally {
		await transport.close();
	}
}

/** Batch mode: campaignId shared by all items, one recipient per item from its fields. */
function batchParameters(campaignId: string) {
	return toolParameters('add_campaign_recipients', {
		inputMode: 'batch',
		campaignId,
		batchPhoneNumber: '={{ $json.phoneNumber }}',
		batchParameters: '={{ $json.parameters }}',
		batchConsentSource: '={{ $json.consentSource }}',
		batchConsentAt: '={{ $json.consentAt }}',
		options: rateLimitOptions(SPEED),
	});
}

export async function campaignUploadRow(sandbox: SandboxProcess): Promise<MeasuredRow> {
	await sandbox.setSpeed(SPEED);
	let nodeStarts: (() => Promise<void>) | undefined;
	const engine = nodeEngine(sandbox, { beforeExecute: async () => await nodeStarts?.() });
	await warmUp(
		engine,
		sandbox,
		batchParameters(await createCampaign(sandbox)),
		recipients(2, RECIPIENTS),
	);
	const campaignId = await createCampaign(sandbox);
	const items = recipients(RECIPIENTS);

	// The node's share starts when n8n hands it the items: the harness's Start node and n8n's copy
	// of the items for each node (every node pays it) come before, and are in the whole run's figure.
	let nodeMemory: RssWatch | undefined;
	let measuringMs = 0;
	nodeStarts = async () => {
		const start = performance.now();
		collectGarbage();
		nodeMemory = await watchRss();
		measuringMs = performance.now() - start;
	};
	collectGarbage();
	const runMemory = await watchRss();
	const measured = await runNode(engine, batchParameters(campaignId), items);
	// The collection and the sampler's start inside the run are the bench's, not the node's.
	const result = { ...measured, wallMs: measured.wallMs - measuringMs };
	const runPeak = await runMemory.stop();
	if (!nodeMemory) throw new Error('the node never started');
	const nodePeak = await nodeMemory.stop();
	if (result.error) throw new Error(`the node failed: ${result.error}`);
	const memory = {
		node: nodePeak - nodeMemory.baseline,
		run: runPeak - runMemory.baseline,
		before: runMemory.baseline,
	};

	const uploads = (await sandbox.calls()).filter((call) => call.tool === 'add_campaign_recipients');
	const stored = uploads.reduce(
		(sum, call) =>
			sum +
			(call.status === 200
				? ((call.input as { recipients?: unknown[] }).recipients?.length ?? 0)
				: 0),
		0,
	);
	if (stored !== RECIPIENTS)
		throw new Error(`${stored} of ${RECIPIENTS} recipients reached the sandbox`);
	const optimum = Math.ceil(RECIPIENTS / PER_CALL);
	const minimumMs = writeLimitMinimumMs(uploads.length, SPEED);
	const itemsSize = JSON.stringify(items).length;
	// Calls go out only after every item is read and checked, so the wall time splits cleanly.
	const callsMs = spanMs(uploads) / SPEED;
	const rejected = uploads.filter((call) => call.status === 429).length;
	return {
		id: '3',
		title: `Campaign upload: ${RECIPIENTS.toLocaleString('en-US')} recipients from items through the node's batch mode`,
		figure: `${uploads.length} calls, ${rejected} × 429; wall ${ratio(result.wallMs / minimumMs)} (${duration(result.wallMs)}); peak RSS +${megabytes(memory.node)} while the node runs (${ratio(memory.node / itemsSize, 1)} the items)`,
		anchor: `optimum ${optimum} calls; limit-bound minimum ${duration(minimumMs)}; items ${megabytes(itemsSize)} as JSON; RSS before ${megabytes(memory.before)}`,
		target: `${optimum} calls, 0 × 429, <= ${TARGET.toFixed(2)}x; peak RSS < 2x the items`,
		met:
			uploads.length === optimum &&
			rejected === 0 &&
			result.wallMs / minimumMs <= TARGET &&
			memory.node < 2 * itemsSize,
		notes: [
			`Real sandbox clock (the limit forces one wait of a minute between the first 120 calls and the rest). Memory: peak RSS over a baseline taken after a full garbage collection. While the node runs (from when n8n calls it to the end of the run: item reading and checks, the batch plan, request bodies, the node's output and n8n's run data) +${megabytes(memory.node)}; the whole workflow run, which adds the harness's Start node and n8n's copy of the ${RECIPIENTS.toLocaleString('en-US')} items for each of the two nodes, +${megabytes(memory.run)} (${ratio(memory.run / itemsSize, 1)} the items).`,
			`Split: ${duration(result.wallMs - callsMs)} reading and checking the items and planning the batches before the first call, then ${duration(callsMs)} from the first call to the last (the limit allows ${duration(minimumMs)}). ${uploads.filter((call) => call.status !== 200).length} calls failed, ${rejected} met a 429. The campaign is created with another key of the account, so the node's key carries the node's calls alone.`,
		],
	};
}
