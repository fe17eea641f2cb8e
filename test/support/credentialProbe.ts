import type { LoadOptionsContext } from 'n8n-core';
import type { ICredentialDataDecryptedObject, INode, INodeType } from 'n8n-workflow';

import { MessagingAutomationApi } from '../../credentials/MessagingAutomationApi.credentials';
import { N8nEngine } from './n8nEngine';

/** A node type that only declares the credential, so n8n-core lets its context read it. */
const probeType = {
	description: {
		displayName: 'Probe',
		name: 'probe',
		group: ['transform'],
		version: 1,
		description: 'Holds the credential',
		defaults: { name: 'Probe' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
		credentials: [{ name: 'messagingAutomationApi', required: true }],
	},
} as unknown as INodeType;

export const probeNode: INode = {
	id: 'probe-1',
	name: 'Probe',
	type: 'probe',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
	credentials: { messagingAutomationApi: { id: 'cred-1', name: 'Test' } },
};

/** A real n8n-core context (LoadOptionsContext) holding `credential`, with n8n's own request helpers. */
export function credentialProbe(credential: ICredentialDataDecryptedObject): LoadOptionsContext {
	const engine = new N8nEngine({
		nodeTypes: { probe: probeType },
		credentialTypes: [new MessagingAutomationApi()],
		credentials: { messagingAutomationApi: credential },
	});
	return engine.loadOptionsContext({ nodes: [probeNode], connections: {} }, 'Probe');
}
