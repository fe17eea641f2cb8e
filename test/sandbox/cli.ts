import { parseArgs } from 'node:util';
import { startSandbox } from './index';

/** `npm run sandbox [-- --port N]`: the demo account on 127.0.0.1 until Ctrl-C / SIGTERM. */
async function main(): Promise<void> {
	const { values } = parseArgs({ options: { port: { type: 'string' } } });
	const port = Number(values.port ?? process.env.SANDBOX_PORT ?? 4010);
	if (!Number.isInteger(port) || port < 0 || port > 65535)
		throw new Error(`invalid port ${String(values.port ?? process.env.SANDBOX_PORT)}`);
	const sandbox = await startSandbox({ port, apiKey: process.env.SANDBOX_API_KEY || undefined });
	console.log(`listening on ${sandbox.url}`);
	console.log(`API key (owner, all scopes): ${sandbox.apiKey}`);
	for (const [persona, key] of Object.entries(sandbox.keys))
		console.log(`  ${persona.padEnd(10)} ${key}`);
	console.log(`control API: ${sandbox.url}/__sandbox/state`);
	const stop = (signal: string) => {
		console.log(`${signal}: stopping`);
		sandbox.stop().then(
			() => process.exit(0),
			(error: unknown) => {
				console.error(error);
				process.exit(1);
			},
		);
	};
	process.once('SIGINT', () => stop('SIGINT'));
	process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
