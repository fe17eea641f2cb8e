import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { raw } from './harness';

describe('npm run sandbox (cli.ts)', () => {
	it('listens on 127.0.0.1, prints the URL and key, serves that key and stops cleanly on SIGTERM', async () => {
		const child = spawn(
			process.execPath,
			['--import', 'tsx', 'test/sandbox/cli.ts', '--port', '0'],
			{
				env: { ...process.env, SANDBOX_API_KEY: 'cli_test_key_0001' },
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		const url = await new Promise<string>((resolve, reject) => {
			child.stdout.on('data', () => {
				const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
				if (match && output.includes('cli_test_key_0001')) resolve(match[1]);
			});
			child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${output}`)));
		});
		const me = await raw(url, 'GET', '/api/v1/me', {
			headers: { authorization: 'Bearer cli_test_key_0001' },
		});
		expect(me.body.key.name).toBe('owner');
		child.kill('SIGTERM');
		const [code] = await once(child, 'exit');
		expect(code).toBe(0);
	});
});
