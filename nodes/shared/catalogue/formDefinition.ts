import { z } from 'zod/v4';

import { isRecord } from '../guards';

/*
 * The flow JSON is checked here only for its outer shape (an object, or a string holding one);
 * screen and component rules are the provider's (and the sandbox's) to report.
 */

const MAX_DEFINITION_CHARS = 1_000_000;

function holdsJsonObject(text: string): boolean {
	try {
		return isRecord(JSON.parse(text));
	} catch {
		return false;
	}
}

function definitionError(issue: { input?: unknown }): string | undefined {
	if (issue.input === undefined) return undefined;
	if (typeof issue.input !== 'string') return 'must be a flow JSON object or a string holding one';
	if (issue.input.length > MAX_DEFINITION_CHARS) return 'must be at most 1000000 characters';
	return 'must be a string holding a JSON object';
}

export const formDefinition = z
	.union([z.looseObject({}), z.string().max(MAX_DEFINITION_CHARS).refine(holdsJsonObject)], {
		error: definitionError,
	})
	.describe(
		'Flow JSON: an object with version and screens, or the same as a JSON string of up to ' +
			'1,000,000 characters. Each screen has id, title, data and a SingleColumnLayout whose ' +
			'children end in a Footer (navigate, or complete on the terminal screen).',
	)
	.meta({
		examples: [
			{
				version: '7.2',
				screens: [
					{
						id: 'WELCOME',
						title: 'Welcome',
						terminal: true,
						success: true,
						data: {},
						layout: {
							type: 'SingleColumnLayout',
							children: [
								{ type: 'TextInput', name: 'email', label: 'Email', 'input-type': 'email' },
								{
									type: 'Footer',
									label: 'Send',
									'on-click-action': { name: 'complete', payload: { email: '${form.email}' } },
								},
							],
						},
					},
				],
			},
		],
	});
