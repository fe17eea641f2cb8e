import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

describe('the README as the front door', () => {
	it('stays under 300 lines', () => {
		expect(readme.split('\n').length).toBeLessThan(300);
	});

	it("says the first run's time and size as npm run dev prints them", async () => {
		const { FIRST_RUN } = await import('../support/n8nInstall.mjs');
		expect(readme).toContain(FIRST_RUN);
	});

	it('has a try-it step for every example, with the path its printed command starts', async () => {
		const { START_PATHS } = await import('../dev/tryIt.mjs');
		const examples = readdirSync(join(root, 'test', 'dev', 'workflows')).filter((name) =>
			name.endsWith('.json'),
		);
		const steps = readme.slice(
			readme.indexOf('### Try each example'),
			readme.indexOf('### `npm test`'),
		);
		// The AI reply bot has two more steps: human takeover and a lost event.
		expect(steps.match(/^\d+\. /gm)).toHaveLength(examples.length + 2);
		for (const path of Object.values(START_PATHS)) expect(steps).toContain(`/webhook/${path}`);
	});
});
