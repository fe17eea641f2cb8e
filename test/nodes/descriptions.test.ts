import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

import { nodeProperties } from '../../nodes/MessagingAutomation/actions/description';
import { renderDescriptions, SNAPSHOT_FILE, UPDATE_COMMAND } from '../support/descriptionSnapshot';

describe('the editor picture (test/nodes/__snapshots__/descriptions.txt)', () => {
	it('matches what the nodes describe now', () => {
		const rendered = renderDescriptions();
		// Set by `npm run snapshot:update`: the picture is rewritten, and the diff is the review.
		if (process.env.UPDATE_DESCRIPTIONS === '1') {
			mkdirSync(dirname(SNAPSHOT_FILE), { recursive: true });
			writeFileSync(SNAPSHOT_FILE, rendered);
		}
		const stored = existsSync(SNAPSHOT_FILE) ? readFileSync(SNAPSHOT_FILE, 'utf8') : '';
		expect(
			rendered,
			`The editor changed. Review the diff, then run \`${UPDATE_COMMAND}\` and commit the file.`,
		).toBe(stored);
	});

	it('changes with any label', () => {
		const resource = nodeProperties.find((property) => property.name === 'resource');
		if (!resource) throw new Error('the node has no Resource parameter');
		const label = resource.displayName;
		resource.displayName = 'Resource Renamed';
		try {
			expect(renderDescriptions()).toContain('Resource Renamed (resource): options');
		} finally {
			resource.displayName = label;
		}
	});
});
