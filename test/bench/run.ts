// n8n-core writes its instance settings below the user folder on import: keep that out of $HOME.
import '../support/setupEnv';

import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';

import { campaignUploadRow } from './campaignUpload';
import { clientOverheadRow } from './clientOverhead';
import { groupingRow } from './grouping';
import { rateLimitedRow } from './rateLimited';
import { startSandboxProcess, type SandboxProcess } from './sandboxProcess';
import { signatureRows } from './signature';
import { triggerRow } from './triggerN8n';
import { formatNotes, formatTable, isFailed, type RowResult } from './table';

/*
 * `npm run bench [-- --with-n8n] [-- --only 1,4]`: every row measured side by side in this run,
 * printed as one Markdown table. Missing a target is a result, not a failure: the exit code is
 * non-zero only when a row could not be measured at all.
 */

interface RowContext {
	/** The sandbox process shared by the rows that need one, started on first use. */
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
	{ id: '2', title: 'Rate-limit-bound work', run: async ({ sandbox }) => [await rateLimitedRow(await sandbox())] },
	{ id: '3', title: 'Campaign upload', run: async ({ sandbox }) => [await campaignUploadRow(await sandbox())] },
	{ id: '4', title: 'Client overhead on loopback', run: async ({ sandbox }) => [await clientOverheadRow(await sandbox())] },
	{ id: '5', title: 'Trigger in real n8n', run: async ({ withN8n }) => [await triggerRow(withN8n)] },
	{ id: '6', title: 'Group Quick Messages', run: async ({ sandbox }) => [await groupingRow(await sandbox())] },
];

function machine(): string {
	const cpu = cpus();
	return `${cpu.length} x ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GB RAM, Node ${process.version}, ${process.platform}-${process.arch}`;
}

async function main(): Promise<void> {
	const { values } = parseArgs({ options: { only: { type: 'string' }, 'with-n8n': { type: 'boolean', default: false } } });
	const only = values.only?.split(',').map((id) => id.trim());
	let sandbox: Promise<SandboxProcess> | undefined;
	const context: RowContext = {
		sandbox: async () => await (sandbox ??= startSandboxProcess()),
		withN8n: values['with-n8n'] ?? false,
	};

	const results: RowResult[] = [];
	try {
		for (const row of ROWS.filter((candidate) => !only || only.includes(candidate.id))) {
			process.stderr.write(`[bench] row ${row.id}: ${row.title} ...\n`);
			try {
				results.push(...(await row.run(context)));
				if (sandbox) await (await sandbox).reset();
			} catch (error) {
				results.push({ id: row.id, title: row.title, error: error instanceof Error ? error.message : String(error) });
			}
		}
	} finally {
		if (sandbox) await (await sandbox).stop();
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
