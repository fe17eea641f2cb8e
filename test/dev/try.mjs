// `npm run try -- <example>`: tries one example of a running `npm run dev` without a browser, waits for
// its effect and prints what happened (`runs`: the last runs and their status). `npm run dev` prints
// each command; --sandbox, --n8n and --webhooks name its addresses when they are not the defaults.
import { parseArgs } from 'node:util';
import { DEFAULT_ADDRESSES } from './tryIt.mjs';
import { RunFirst } from './tryLines.mjs';

// The takeover commands judge a pause with the trigger's own TypeScript code: tsx loads it.
await import('tsx');
const { tryExamples } = await import('./tryActions.mjs');

const { values, positionals } = parseArgs({
	allowPositionals: true,
	options: {
		sandbox: { type: 'string', default: DEFAULT_ADDRESSES.sandboxUrl },
		n8n: { type: 'string', default: DEFAULT_ADDRESSES.n8nUrl },
		webhooks: { type: 'string' },
	},
});
const actions = tryExamples({
	sandboxUrl: values.sandbox,
	n8nUrl: values.n8n,
	webhookBaseUrl: values.webhooks ?? values.n8n,
	progress: (line) => process.stderr.write(`${line}\n`),
});
const action = actions[positionals[0]];
if (positionals.length !== 1 || !action) {
	process.stderr.write(
		`usage: npm run -s try -- <${Object.keys(actions).join(' | ')}> [--sandbox URL] [--n8n URL] [--webhooks URL]\n`,
	);
	process.exit(2);
}

/** "fetch failed" says nothing: name the address that did not answer. */
function reason(error) {
	if (error.cause?.code === 'ECONNREFUSED')
		return `nothing answers at ${error.cause.address}:${error.cause.port}: is npm run dev running (with these addresses)?`;
	return error.cause ? `${error.message}: ${error.cause.message}` : error.message;
}

try {
	const report = await action();
	process.stdout.write(report.endsWith('\n') ? report : `${report}\n`);
} catch (error) {
	// Another command has to run first: the one line that says which, and exit 2.
	if (error instanceof RunFirst) {
		process.stderr.write(`${error.message}\n`);
		process.exit(2);
	}
	process.stderr.write(`${positionals[0]}: ${reason(error)}\n`);
	process.exit(1);
}
