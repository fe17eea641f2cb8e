// vitest's JSON report, written without the line naming its file: runVitest reads the file for its
// counts and removes it, so a printed path would point at nothing by the time anyone looked.
import { writeFile } from 'node:fs/promises';
import { JsonReporter } from 'vitest/node';

export default class QuietJsonReporter extends JsonReporter {
	async writeReport(report) {
		await writeFile(process.env.VITEST_REPORT_FILE, report, 'utf8');
	}
}
