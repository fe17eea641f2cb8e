import { randomUUID } from 'node:crypto';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MessagingAutomationApi } from '../../../../credentials/MessagingAutomationApi.credentials';
import { MessagingAutomationCatchUp } from '../../../../nodes/MessagingAutomationCatchUp/MessagingAutomationCatchUp.node';
import type { SandboxHandle } from '../../../sandbox';
import { N8nEngine, START_NODE_TYPE, type TestWorkflow } from '../../../support/n8nEngine';
import { N8nPollHost } from '../../../support/n8nPoll';
import { N8nWebhookHost } from '../../../support/n8nWebhook';
import { beforeEach } from 'vitest';

import { activeMessageTrigger, startTriggerHost, useStoppedClock } from '../fixtures';

const clone = (data: unknown): IDataObject => JSON.parse(JSON.stringify(data ?? {})) as IDataObject;

/** n8n's engine with `nodeTypes`, its credential `apiKey`'s (the sandbox's owner key unless said). */
export function sandboxEngine(
	sandbox: SandboxHandle,
	nodeTypes: ConstructorParameters<typeof N8nEngine>[0]['nodeTypes'],
	apiKey = sandbox.keys.owner,
): N8nEngine {
	return new N8nEngine({
		nodeTypes,
		credentialTypes: [new MessagingAutomationApi()],
		credentials: {
			messagingAutomationApi: {
				apiKey,
				baseUrl: sandbox.url,
				authScheme: 'bearer',
			},
		},
	});
}

/**
 * The static data 'global' of a workflow whose trigger has `beside`'s settings: that trigger's as
 * it saved it at activation, or, for parameters, a trigger's activated for it and gone again (a
 * workflow inactive until the poll's activation). n8n activates webhooks before pollers on one
 * Workflow object, so the poll starts from what the trigger wrote.
 */
async function triggerGlobal(
	sandbox: SandboxHandle,
	beside: N8nWebhookHost | INodeParameters,
): Promise<IDataObject> {
	if (beside instanceof N8nWebhookHost) return clone(beside.savedStaticData.global);
	const host = await startTriggerHost({
		baseUrl: sandbox.url,
		apiKey: sandbox.keys.owner,
		parameters: { events: ['message.received'], ...beside },
	});
	try {
		await host.activate('production');
		return clone(host.savedStaticData.global);
	} finally {
		await host.deactivate('production');
		await host.stop();
	}
}

/**
 * A Catch-Up node in the trigger's workflow, its own node id per test (its memory is per node), its
 * credential `apiKey`'s (the trigger's, the sandbox's owner key, unless said).
 */
export function catchUpWorkflow(
	sandbox: SandboxHandle,
	apiKey = sandbox.keys.owner,
	/** The node's own parameters (its Poll Times, say). */
	parameters: INodeParameters = {},
): {
	engine: N8nEngine;
	definition: TestWorkflow;
} {
	const engine = sandboxEngine(
		sandbox,
		{ messagingAutomationCatchUp: new MessagingAutomationCatchUp() },
		apiKey,
	);
	const node = {
		id: randomUUID(),
		name: 'Catch-Up',
		type: 'messagingAutomationCatchUp',
		typeVersion: 1,
		position: [0, 0] as [number, number],
		parameters,
		credentials: { messagingAutomationApi: { id: 'cred-1', name: 'Sandbox' } },
	};
	return { engine, definition: { nodes: [node], connections: {} } };
}

/** The Catch-Up node's poll beside a trigger (a live one, or one with these parameters). */
export async function catchUpBeside(
	sandbox: SandboxHandle,
	beside: N8nWebhookHost | INodeParameters,
	apiKey = sandbox.keys.owner,
	/** This n8n's waiting-webhook base, where Send and Wait's links point (n8n's default else). */
	waitingBase?: string,
	/** The Catch-Up node's own parameters. */
	parameters: INodeParameters = {},
): Promise<N8nPollHost> {
	const { engine, definition } = catchUpWorkflow(sandbox, apiKey, parameters);
	if (waitingBase) engine.webhookWaitingBaseUrl = waitingBase;
	const poll = new N8nPollHost(engine, definition, 'Catch-Up');
	poll.savedStaticData = { global: await triggerGlobal(sandbox, beside) };
	return poll;
}

/**
 * A Catch-Up test run's workflow, its static data the trigger's as `catchUpBeside` gives it, its
 * credential `apiKey`'s (the trigger's unless said).
 */
export async function catchUpTestRun(
	sandbox: SandboxHandle,
	beside: N8nWebhookHost | INodeParameters,
	apiKey = sandbox.keys.owner,
): Promise<{ engine: N8nEngine; definition: TestWorkflow }> {
	const { engine, definition } = catchUpWorkflow(sandbox, apiKey);
	return {
		engine,
		definition: { ...definition, staticData: { global: await triggerGlobal(sandbox, beside) } },
	};
}

/** Group Quick Messages with a short quiet window, as the Catch-Up tests' triggers have it. */
export const quickGrouping: INodeParameters = {
	groupQuickMessages: true,
	quietWindowSeconds: 0.4,
	longestWaitSeconds: 10,
};

/**
 * Each test's sandbox (its clock stopped) and, on demand, a live trigger (grouped with a short quiet
 * window unless said) with the Catch-Up poll beside it; the trigger is stopped after the test.
 */
export function useCatchUpBesideTrigger(): {
	sandbox: () => SandboxHandle;
	/** The test's live trigger, once started. */
	trigger: () => N8nWebhookHost | undefined;
	startTrigger: (parameters?: INodeParameters) => Promise<N8nWebhookHost>;
	/** The poll beside the live trigger, or beside a grouped one with `parameters` (inactive till the poll starts). */
	catchUp: (parameters?: INodeParameters) => Promise<N8nPollHost>;
	/** A live trigger and the poll beside it, activated. */
	start: (parameters?: INodeParameters) => Promise<{ trigger: N8nWebhookHost; poll: N8nPollHost }>;
} {
	let sandbox: SandboxHandle | undefined;
	let trigger: N8nWebhookHost | undefined;
	useStoppedClock(
		(started) => void (sandbox = started),
		() => trigger,
	);
	beforeEach(() => void (trigger = undefined));
	const current = () => sandbox as SandboxHandle;
	const startTrigger = async (parameters: INodeParameters = quickGrouping) =>
		(trigger = await activeMessageTrigger(current(), parameters));
	const catchUp = async (parameters: INodeParameters = {}) =>
		await catchUpBeside(current(), trigger ?? { ...quickGrouping, ...parameters });
	return {
		sandbox: current,
		trigger: () => trigger,
		startTrigger,
		catchUp,
		start: async (parameters?: INodeParameters) => {
			const live = await startTrigger(parameters);
			const poll = await catchUp();
			await poll.activate();
			return { trigger: live, poll };
		},
	};
}

/**
 * A never-published workflow of the Catch-Up node and, with `trigger`'s fields, a trigger named
 * `triggerName` beside it, both leading to Reply (the Catch-Up node only when `catchUpConnected`).
 */
export function besideWorkflow(
	trigger: INodeParameters | undefined,
	{ triggerName = 'On Messages', catchUpConnected = true } = {},
): TestWorkflow {
	const to = (node: string) => ({ main: [[{ node, type: 'main' as const, index: 0 }]] });
	const node = (name: string, type: string, extra: IDataObject = {}) => ({
		id: randomUUID(),
		name,
		type,
		typeVersion: 1,
		position: [0, 0] as [number, number],
		parameters: {},
		...extra,
	});
	const credentials = { messagingAutomationApi: { id: 'cred-1', name: 'Sandbox' } };
	const triggerNode = trigger && {
		...node(triggerName, 'messagingAutomationTrigger', { credentials, parameters: trigger }),
		webhookId: randomUUID(),
	};
	return {
		nodes: [
			node('Catch-Up', 'messagingAutomationCatchUp', { credentials }),
			node('Reply', START_NODE_TYPE),
			...(triggerNode ? [triggerNode] : []),
		],
		connections: {
			...(catchUpConnected ? { 'Catch-Up': to('Reply') } : {}),
			...(triggerNode ? { [triggerName]: to('Reply') } : {}),
		},
	};
}
