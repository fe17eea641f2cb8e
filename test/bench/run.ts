// n8n-core writes its instance settings below the user folder on import: keep that out of $HOME.
import '../support/setupEnv';

import { spawn } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

import { businessWindowRow } from './businessWindow';
import { campaignUploadRow } from './campaignUpload';
import { clientOverheadRow } from './clientOverhead';
import { groupingRow } from './grouping';
import { rateLimitedRow } from './rateLimited';
import { startSandboxProcess, type SandboxProcess } from './sandboxProcess';
import { signatureRows } from './signature';
import { triggerRows } from './triggerN8n';
import { triggerReadsRow } from './triggerReads';
import { formatNotes, formatTable, isFailed, type RowResult } from './table';

/*
 * `npm run bench [-- --with-n8n] [-- --only 1,4]`: every row measured side by side in this run,
 * printed as one Markdown table. Missing a target is a result, not a failure: the exit code is
 * non-zero only when a row could not be measured at all.
 *
 * Each row runs in a process of its own (this script again, with --row): a row's figures then
 * never depend on which rows ran before it. After a few minutes of other rows, V8 collected
 * row 3's garbage later and its peak memory read +45 MB instead of +13 MB.
 */

/** Prefix of the one stdout line on which a row process hands its results to the runner. */
const RESULT_LINE = 'bench-row-result ';

interface RowContext {
	/** The row's own sandbox process, started on first use and stopped with the row. */
	sandbox(): Promise<SandboxProcess>;
	withN8n: boolean;
}

interface RowSpec {
	id: string;
	title: string;
	run(context: RowContext): Promise<RowResult[]>;
}

const ROWS: RowSpec[] = [
	{ id: '1', title: 'Signature verification', run: async () => await signatureRows() },
	{
		id: '2',
		title: 'Rate-limit-bound work',
		run: async ({ sandbox }) => [await rateLimitedRow(await sandbox())],
	},
	{
		id: '3',
		title: 'Campaign upload',
		run: async ({ sandbox }) => [await campaignUploadRow(await sandbox())],
	},
	{
		id: '4',
		title: 'Client overhead on loopback',
		run: async ({ sandbox }) => [await clientOverheadRow(await sandbox())],
	},
	{
		id: '5',
		title: 'Trigger in real n8n',
		run: async ({ withN8n }) => await triggerRows(withN8n),
	},
	{
		id: '6',
		title: 'Group Quick Messages',
		run: async ({ sandbox }) => [await groupingRow(await sandbox())],
	},
	{
		id: '7',
		title: 'Business window',
		run: async ({ sandbox }) => [await businessWindowRow(await sandbox())],
	},
	{
		id: '8',
		title: "Trigger's reads per minute",
		run: async ({ sandbox }) => [await triggerReadsRow(await sandbox())],
	},
];

function machine(): string {
	const cpu = cpus();
	return `${cpu.length} x ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GB RAM, Node ${process.version}, ${process.platform}-${process.arch}`;
}

/** Runs one row here and prints its results on one line for the runner. */
async function runRow(row: RowSpec, withN8n: boolean): Promise<void> {
	let sandbox: Promise<SandboxProcess> | undefined;
	const context: RowContext = {
		sandbox: async () => await (sandbox ??= startSandboxProcess()),
		withN8n,
	};
	let results: RowResult[];
	try {
		results = await row.run(context);
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		results = [{ id: row.id, title: row.title, error: message }];
	} finally {
		if (sandbox) await (await sandbox).stop();
	}
	console.log(`${RESULT_LINE}${JSON.stringify(results)}`);
}

/** Runs a row in a child process with this process's flags (--expose-gc, tsx). */
async function rowInItsOwnProcess(row: RowSpec, withN8n: boolean): Promise<RowResult[]> {
	const child = spawn(
		process.execPath,
		[...process.execArgv, __filename, '--row', row.id, ...(withN8n ? ['--with-n8n'] : [])],
		{ stdio: ['ignore', 'pipe', 'inherit'] },
	);
	const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
	let results: RowResult[] | undefined;
	for await (const line of createInterface({ input: child.stdout })) {
		if (line.startsWith(RESULT_LINE))
			results = JSON.parse(line.slice(RESULT_LINE.length)) as RowResult[];
		else console.log(line);
	}
	const code = await exited;
	return (
		results ?? [{ id: row.id, title: row.title, error: `its process exited with code ${code}` }]
	);
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			only: { type: 'string' },
			row: { type: 'string' },
			'with-n8n': { type: 'boolean', default: false },
		},
	});
	const withN8n = values['with-n8n'] ?? false;
	if (values.row !== undefined) {
		const row = ROWS.find((candidate) => candidate.id === values.row);
		if (!row) throw new Error(`no bench row ${values.row}`);
		await runRow(row, withN8n);
		return;
	}

	const only = values.only?.split(',').map((id) => id.trim());
	const results: RowResult[] = [];
	for (const row of ROWS.filter((candidate) => !only || only.includes(candidate.id))) {
		process.stderr.write(`[bench] row ${row.id}: ${row.title} ...\n`);
		results.push(...(await rowInItsOwnProcess(row, withN8n)));
	}

	console.log(`\nBenchmarks, ${new Date().toISOString().slice(0, 10)}, ${machine()}\n`);
	console.log(formatTable(results));
	const notes = formatNotes(results);
	if (notes) console.log(`\n${notes}`);
	process.exitCode = results.some(isFailed) ? 1 : 0;
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
