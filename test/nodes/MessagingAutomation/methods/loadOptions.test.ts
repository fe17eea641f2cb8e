import { describe, expect, it } from 'vitest';

import { getOtherTools } from '../../../../nodes/MessagingAutomation/methods/loadOptions';
import { useHarness } from '../harness';

/* Other › Call Another Tool: the live tools of the key that have no operation of their own. */

const h = useHarness();

describe('tools for Call Another Tool', () => {
	it('lists no tool that already has an operation', async () => {
		// Every tool the sandbox serves has an operation of its own in the catalogue.
		expect(
			await getOtherTools.call(h.loadOptions({ resource: 'other', operation: 'callTool' })),
		).toEqual([]);
	});

	it('says why when the list cannot be loaded', async () => {
		h.engine.credentialsHelper.set('messagingAutomationApi', {
			apiKey: 'k',
			baseUrl: 'http://127.0.0.1:9',
			authScheme: 'bearer',
		});
		// n8n words the connection failure itself ("refused the connection"); the dropdown shows it.
		await expect(
			getOtherTools.call(h.loadOptions({ resource: 'other', operation: 'callTool' })),
		).rejects.toThrow(/connection/);
	});
});
