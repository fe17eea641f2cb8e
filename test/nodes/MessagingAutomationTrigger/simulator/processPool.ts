/**
 * Module instances of the trigger: each one is a webhook process's memory. Loading the node's code
 * afresh (vi.resetModules and a dynamic import) takes about 30 ms, far longer than a case, so each
 * case takes instances no other process of the same case has used, and every case has its own
 * workflow id, webhook URL and API key: all the trigger keeps in memory is kept per trigger scope
 * or per key, so an instance an earlier case used is, for this case, a process that just started.
 * The instances are loaded afresh every REFRESH_EVERY cases all the same, so what earlier cases
 * left (held desks whose timers the next case dropped) never piles up.
 */
import type { INodeType } from 'n8n-workflow';
import { vi } from 'vitest';

import { clearProcessedData } from '../../../support/processedData';

/** Process incarnations one case may use: two processes, two stops, one stop after recording, and one spare. */
const PER_CASE = 6;
const REFRESH_EVERY = 250;

/**
 * A process's nodes: the trigger, the Catch-Up poll beside it (one module graph: the claims and
 * answer offers it shares with the trigger are the same module's), and the Send and Wait node its
 * waiting webhooks reach.
 */
export interface ProcessNodes {
	trigger: INodeType;
	catchUp: INodeType;
	sendAndWait: INodeType;
}

async function loadNodes(): Promise<ProcessNodes> {
	vi.resetModules();
	// node16 resolution wants the emitted name for import(); vite maps it to the source.
	const trigger = await import(
		'../../../../nodes/MessagingAutomationTrigger/MessagingAutomationTrigger.node.js'
	);
	const catchUp = await import(
		'../../../../nodes/MessagingAutomationCatchUp/MessagingAutomationCatchUp.node.js'
	);
	const action = await import('../../../../nodes/MessagingAutomation/MessagingAutomation.node.js');
	return {
		trigger: new trigger.MessagingAutomationTrigger(),
		catchUp: new catchUp.MessagingAutomationCatchUp(),
		sendAndWait: new action.MessagingAutomation(),
	};
}

export class ProcessPool {
	private instances: ProcessNodes[] = [];
	private used = 0;
	private cases = 0;

	/** Before each case. */
	async nextCase(): Promise<void> {
		this.used = 0;
		if (this.cases++ % REFRESH_EVERY !== 0 && this.instances.length > 0) return;
		clearProcessedData();
		this.instances = [];
		for (let index = 0; index < PER_CASE; index++) this.instances.push(await loadNodes());
	}

	/** A process that starts now. */
	take(): ProcessNodes {
		const instance = this.instances[this.used++];
		if (!instance) throw new Error(`A case used more than ${PER_CASE} process incarnations`);
		return instance;
	}
}
