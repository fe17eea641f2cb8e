import {
	NodeOperationError,
	sleep,
	type IDataObject,
	type IExecuteFunctions,
	type IHookFunctions,
	type IPollFunctions,
} from 'n8n-workflow';

import type { BurstRules } from '../../shared/conversation/bursts';
import type { TakeoverRules } from '../../shared/conversation/takeover';
import { credentialFingerprint } from '../../shared/transport/credential';
import type { EventFilters } from '../receive/eventFilter';
import { readSettings } from '../settings';
import { TriggerState } from '../state';

/*
 * The Catch-Up poll node follows the trigger beside it: the trigger's parameters are the one truth.
 * At activation the trigger writes what the poll needs into the workflow's static data 'global'
 * under one key, by its node ID, and removes it at deactivation. n8n 1.123 creates webhooks (the
 * trigger's checkExists/create) before it adds pollers, on the same Workflow object; n8n 2.40's
 * publishing registers both at once (WorkflowTriggerActivator.activateInternal), so an activation's
 * first poll waits for the trigger's settings (pollLookup). A poll's save writes that same object
 * back, so what the trigger wrote stays. A deactivation (every edit of an active workflow is one)
 * runs the trigger's delete on the old version, so a trigger since removed leaves nothing behind.
 */

const KEY = 'messagingAutomationCatchUp';

/** What the poll needs of one trigger. */
export interface SharedSettings {
	/** The trigger node's name, for the log. */
	trigger: string;
	/** Group Quick Messages; undefined: off. */
	grouping?: BurstRules;
	filters: EventFilters;
	takeover?: TakeoverRules;
	answers: boolean;
	/** Catch Up Missed Messages: how old a missed message may be (ms); 0: off. */
	catchUpMs: number;
	/** The webhook endpoint the trigger registered (none with Registration: dashboard), for the poll's report. */
	endpointId?: string;
	/** The trigger's credential (its base URL and a hash of its key): the poll must read that account. */
	credential?: string;
	/** The id of the trigger's credential in n8n: a key replaced in it keeps the id. */
	credentialId?: string;
}

type Context = IHookFunctions | IPollFunctions | IExecuteFunctions;

const isRecord = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

function entries(context: Context): IDataObject {
	const stored = context.getWorkflowStaticData('global')[KEY];
	return isRecord(stored) ? stored : {};
}

function write(context: IHookFunctions, entry: SharedSettings | undefined): void {
	const next = { ...entries(context) };
	const id = context.getNode().id;
	if (entry) next[id] = entry as unknown as IDataObject;
	else delete next[id];
	context.getWorkflowStaticData('global')[KEY] = next;
}

/** The trigger's activation: its settings, as the Catch-Up node reads them. */
export async function shareCatchUpSettings(context: IHookFunctions): Promise<void> {
	const settings = readSettings(context);
	write(context, {
		credential: await credentialFingerprint(context),
		...credentialIdOf(context),
		trigger: context.getNode().name,
		...(settings.turn.grouping ? { grouping: settings.turn.grouping } : {}),
		filters: settings.filters,
		...(settings.turn.takeover ? { takeover: settings.turn.takeover } : {}),
		answers: settings.turn.answers,
		catchUpMs: settings.catchUpMs,
	});
}

/**
 * The trigger's endpoint, once its activation found or registered it: the poll reports what keeps
 * it from delivering (endpointReport.ts).
 */
export function shareEndpoint(context: IHookFunctions): void {
	const entry = entries(context)[context.getNode().id];
	const endpoint = new TriggerState(context.getWorkflowStaticData('node')).endpoint(
		context.getNodeWebhookUrl('default') ?? '',
	);
	if (!isShared(entry) || !endpoint || endpoint.test) return;
	write(context, { ...entry, endpointId: endpoint.id });
}

/** The trigger's deactivation. */
export function withdrawCatchUpSettings(context: IHookFunctions): void {
	write(context, undefined);
}

const isShared = (value: unknown): value is SharedSettings =>
	isRecord(value) &&
	typeof value.trigger === 'string' &&
	typeof value.catchUpMs === 'number' &&
	isRecord(value.filters);

/** The settings a poll catches up by: grouping and catching up on. */
export type CatchUpSettings = SharedSettings & { grouping: BurstRules };

/** The settings, with the node id of the trigger they are (whose claims a caught-up run makes). */
export type SharedLookup =
	| { settings: CatchUpSettings; trigger: string }
	/**
	 * `noneShared`: no trigger of the workflow shares settings (none active, or not saved yet);
	 * `off`: the trigger that does, and its fields this node needs that are off.
	 */
	| { why: string; noneShared?: boolean; off?: { trigger: string; fields: string[] } };

const shared = (context: Context) =>
	Object.entries(entries(context))
		.filter((entry): entry is [string, SharedSettings] => isShared(entry[1]))
		.map(([id, entry]) => ({ ...entry, id }))
		.sort((a, b) => a.trigger.localeCompare(b.trigger));

/**
 * The settings of the trigger the poll follows: the first by name of the workflow's active
 * triggers with Group Quick Messages and Catch Up Missed Messages on; else why there is none.
 */
export function sharedCatchUpSettings(context: Context): SharedLookup {
	const all = shared(context);
	if (all.length === 0)
		return {
			noneShared: true,
			why: "no Messaging Automation Trigger in this workflow is active. This node follows the trigger's settings, which the trigger shares once the workflow is active: add one with Group Quick Messages and Catch Up Missed Messages on, then publish the workflow (on n8n 1.x: activate it)",
		};
	const on = all.find(
		(entry): entry is CatchUpSettings & { id: string } =>
			entry.grouping !== undefined &&
			entry.catchUpMs > 0 &&
			entry.filters.eventTypes.includes('message.received'),
	);
	if (on) {
		const { id, ...settings } = on;
		return { settings, trigger: id };
	}
	const [first] = all;
	const off = fieldsOff({
		messages: first.filters.eventTypes.includes('message.received'),
		grouping: first.grouping !== undefined,
		catchUp: first.catchUpMs > 0,
	});
	return {
		why: `the Messaging Automation Trigger "${first.trigger}" has ${listed(off)} off; this node needs Message Received, Group Quick Messages and Catch Up Missed Messages on`,
		off: { trigger: first.trigger, fields: off },
	};
}

/**
 * The trigger fields this node needs on that are off, by their labels, as the trigger shows them:
 * Group Quick Messages shows with Message Received only, Catch Up Missed Messages with Group Quick
 * Messages only. One rule for the poll's log (shared settings) and a test run's error (the node's
 * parameters, testRunError.ts).
 */
export function fieldsOff(on: {
	messages: boolean;
	grouping: boolean;
	catchUp: boolean;
}): string[] {
	if (!on.messages) return ['Message Received (in Events)', 'Group Quick Messages'];
	if (!on.grouping) return ['Group Quick Messages'];
	return on.catchUp ? [] : ['Catch Up Missed Messages'];
}

/** Labels as a sentence lists them: "A", "A and B", "A, B and C". */
export const listed = (labels: string[]) =>
	labels.length > 1 ? `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}` : labels[0];

/**
 * Whether an enabled Messaging Automation Trigger is beside this node in the workflow, as n8n's node
 * list (the published version's nodes and connections, not static data) shows it: a trigger that
 * shares a next node with it, as the README sets the two up.
 */
function triggerBeside(context: IPollFunctions | IExecuteFunctions): boolean {
	return context
		.getChildNodes(context.getNode().name)
		.some((next) =>
			context
				.getParentNodes(next.name, { depth: 1 })
				.some(
					(node) => !node.disabled && node.type.split('.').pop() === 'messagingAutomationTrigger',
				),
		);
}

/**
 * How long an activation's first poll waits for the trigger beside it to share its settings: 23.75 s
 * at most. n8n 2.40.7 publishes a workflow's webhook triggers and its polls at once, on one Workflow
 * (`WorkflowTriggerActivator.activateInternal`: `Promise.allSettled` of both registrations), so the
 * first poll runs while the trigger's activation still talks to the service (review s6, R6-1: it
 * found no settings, logged that no trigger was active, and a credential other than the trigger's
 * published; each later poll then failed).
 */
const SHARE_WAITS_MS = [250, 500, 1000, 2000, 4000, 8000, 8000];

/** Activations (their poll context) whose first poll waited already: later polls do not wait. */
const waited = new WeakSet<object>();

/**
 * The settings a poll follows (sharedCatchUpSettings). An activation's first poll (`first`) that
 * finds none shared yet while the node list shows a trigger beside this node waits until that
 * trigger's activation shared them; a trigger that never does (its activation failed) is the reason.
 */
export async function pollLookup(
	context: IPollFunctions | IExecuteFunctions,
	first: boolean,
): Promise<SharedLookup> {
	if (!first || waited.has(context) || shared(context).length > 0 || !triggerBeside(context))
		return sharedCatchUpSettings(context);
	waited.add(context);
	for (const wait of SHARE_WAITS_MS) {
		await sleep(wait);
		if (shared(context).length > 0) return sharedCatchUpSettings(context);
	}
	return {
		why: `the Messaging Automation Trigger beside it did not share its settings within ${SHARE_WAITS_MS.reduce((sum, wait) => sum + wait, 0) / 1000} s of the activation: its activation failed or is still running (see the workflow's publication status, or its activation error on n8n 1.x); the next poll follows it once it has`,
	};
}

/** The node's credential's id in n8n, when the node names one. */
function credentialIdOf(context: Context): { credentialId?: string } {
	const id = context.getNode().credentials?.messagingAutomationApi?.id;
	return typeof id === 'string' ? { credentialId: id } : {};
}

/**
 * Why a run a poll started must not run what the poll found: the trigger now uses another
 * credential than this node (review s6, S6-6: the trigger alone published again on it, n8n 2.40
 * activating only the triggers that changed, so the poll still reads the old account). Asked by
 * the credential's id, which a key replaced in the same credential keeps (R9b-10).
 */
export function movedCredential(
	context: IExecuteFunctions,
	settings: SharedSettings,
): NodeOperationError | undefined {
	const own = credentialIdOf(context).credentialId;
	if (!settings.credentialId || !own || settings.credentialId === own) return undefined;
	return new NodeOperationError(
		context.getNode(),
		`This node's credential${named(context)} is not the one the Messaging Automation Trigger "${settings.trigger}" uses now: in this node's Credential to connect with, choose the trigger's credential, then publish the workflow again`,
		{
			description:
				'The trigger was published again on another credential, and this node still reads the old account: it runs nothing until both use the same credential. On n8n 1.x, activate the workflow again instead of publishing it.',
		},
	);
}

/** The name of the node's credential, as its Credential field shows it. */
function named(context: IPollFunctions | IExecuteFunctions): string {
	const name = context.getNode().credentials?.messagingAutomationApi?.name;
	return name ? `, "${name}",` : '';
}

/**
 * Why the poll must not read with its own credential: another than the trigger's, whose settings it
 * follows (review 45e, R45e-7, and review 4, R4-3: it would catch up another account's chats by this
 * trigger's rules, and report the trigger's endpoint as deleted). Asked at an activation's first
 * poll, once the trigger's activation shared its settings (pollLookup), so the
 * activation fails naming the credential (n8n 2.x: publishing fails), and in a test run.
 */
export async function otherCredential(
	context: IPollFunctions | IExecuteFunctions,
	settings: SharedSettings,
): Promise<NodeOperationError | undefined> {
	if (!settings.credential || settings.credential === (await credentialFingerprint(context)))
		return undefined;
	return new NodeOperationError(
		context.getNode(),
		// n8n 2.x's publish notice shows the message alone: it says what to do too.
		`This node's credential${named(context)} is not the one the Messaging Automation Trigger "${settings.trigger}" uses: in this node's Credential to connect with, choose the trigger's credential, then publish the workflow again`,
		{
			description:
				'The Catch-Up node runs what that trigger missed, so it must read the same account with the same key. On n8n 1.x, activate the workflow again instead of publishing it.',
		},
	);
}
