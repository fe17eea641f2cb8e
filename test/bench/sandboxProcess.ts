import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

import type { Persona, RecordedCall } from '../sandbox';

/*
 * The sandbox in a process of its own (the `npm run sandbox` CLI), driven through its control
 * API. Separate like the real service is: the bench process's memory and CPU figures then
 * cover only the side being measured, and client and server each get a core.
 */

const CLI = resolve(__dirname, '../sandbox/cli.ts');

export interface SandboxProcess {
	url: string;
	keys: Record<Persona, string>;
	/** Runs the sandbox clock `speed` times faster than the wall clock (limits, windows). */
	setSpeed(speed: number): Promise<void>;
	calls(): Promise<RecordedCall[]>;
	reset(): Promise<void>;
	control<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T>;
	stop(): Promise<void>;
}

async function listeningUrl(child: ChildProcess): Promise<string> {
	const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
	const exited = once(child, 'exit').then(([code]) => {
		throw new Error(`the sandbox exited during start-up (code ${String(code)})`);
	});
	const found = (async () => {
		for await (const line of lines) {
			const match = /^listening on (\S+)/.exec(line);
			if (match) return match[1];
		}
		throw new Error('the sandbox closed its output before listening');
	})();
	return await Promise.race([found, exited]);
}

export async function startSandboxProcess(): Promise<SandboxProcess> {
	const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0'], {
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	let url: string;
	try {
		url = await listeningUrl(child);
		// Keep reading what it prints later, so a full pipe can never block it.
		child.stdout?.resume();
	} catch (error) {
		child.kill('SIGKILL');
		throw error;
	}
	const control = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
		const response = await fetch(`${url}/__sandbox${path}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (!response.ok)
			throw new Error(
				`sandbox control ${method} ${path}: ${response.status} ${await response.text()}`,
			);
		return (await response.json()) as T;
	};
	const { keys } = await control<{ keys: Record<Persona, string> }>('GET', '/keys');
	return {
		url,
		keys,
		control,
		setSpeed: async (speed) => void (await control('POST', '/clock', { speed })),
		calls: async () => (await control<{ calls: RecordedCall[] }>('GET', '/calls')).calls,
		reset: async () => void (await control('POST', '/reset')),
		stop: async () => {
			if (child.exitCode !== null) return;
			const exited = once(child, 'exit');
			child.kill('SIGTERM');
			await exited;
		},
	};
}
