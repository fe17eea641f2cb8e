import type { AddressInfo, Socket } from 'node:net';
import { SandboxActions } from './actions';
import type { SandboxClock } from './clock';
import { createControl } from './control';
import type { FaultSpec } from './faults';
import type { RecordedCall } from './model';
import type { Persona } from './seed';
import { createSandboxServer } from './server';
import type { SandboxState } from './state';
import type { WebhookService } from './webhooks';
import { World, type WorldOptions } from './world';

export { DEMO, PERSONAS, type Persona } from './seed';
export { SandboxClock } from './clock';
export type { RecordedCall } from './model';

export interface SandboxOptions extends WorldOptions {
	/** 0 (default) picks a free port. */
	port?: number;
}

export interface SandboxHandle {
	url: string;
	/** The owner key of the demo account (all scopes). */
	apiKey: string;
	keys: Record<Persona, string>;
	clock: SandboxClock;
	/** Current state, for inspection; replaced by reset(). */
	readonly state: SandboxState;
	readonly webhooks: WebhookService;
	faults: {
		add(spec: FaultSpec): void;
		clear(): void;
	};
	inject: SandboxActions;
	calls(): RecordedCall[];
	reset(): void;
	stop(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
	const world = new World(options);
	const actions = new SandboxActions(world);
	const server = createSandboxServer(
		Object.assign(world, { control: createControl(world, actions) }),
	);
	const sockets = new Set<Socket>();
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
	});
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	world.setUrl(url);
	return {
		url,
		apiKey: world.keys.owner,
		keys: world.keys,
		clock: world.clock,
		get state() {
			return world.state;
		},
		get webhooks() {
			return world.webhooks;
		},
		faults: {
			add: (spec) => void world.faults.add(spec),
			clear: () => world.faults.clear(),
		},
		inject: actions,
		calls: () => [...world.state.calls],
		reset: () => world.reset(),
		stop: async () => {
			world.stop();
			// Keep-alive sockets would hold close() open; a stop ends them.
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
