import { config } from '@n8n/node-cli/eslint';

export default [
	{ ignores: ['dist/**', 'node_modules/**', '.cache/**', 'test/**', 'gulpfile.js', '*.config.*'] },
	...config,
	{
		// The chat memory loads n8n's AI node SDK when it runs, with require (n8n resolves it only for
		// require): an import would make n8n 1.x, which has no SDK, refuse the whole package.
		files: ['nodes/MessagingAutomationChatMemory/aiNodeSdk.ts'],
		rules: {
			'@typescript-eslint/no-require-imports': ['error', { allow: ['^@n8n/ai-node-sdk$'] }],
		},
	},
];
