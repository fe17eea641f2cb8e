/**
 * The credential dialog's "Test" as n8n 2.40.7 runs a credential's declared test request
 * (`CredentialsTester.runRequestTest` in n8n's cli package, which is not installed here): a
 * temporary node whose only property routes the test request, run once by n8n-core's RoutingNode,
 * and the same mapping from what it throws to the message the dialog shows. The e2e suite checks
 * the real dialog against a real n8n (test/e2e/credential.test.mts).
 */
import { ExecuteContext, RoutingNode } from 'n8n-core';
import {
	createRunExecutionData,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type INode,
	type INodeCredentialTestResult,
	type INodeType,
} from 'n8n-workflow';

import { createAdditionalData, N8nEngine } from './n8nEngine';

export interface CredentialTestOptions {
	/**
	 * Shortens n8n's 300 s limit for the test request, through the routing option a declarative node
	 * reads (the dialog's test has none): a test that waits for a time-out then ends in seconds.
	 */
	timeoutMs?: number;
}

const REQUEST_OPTIONS = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	default: {},
	options: [{ displayName: 'Timeout', name: 'timeout', type: 'number', default: 10_000 }],
};

export async function testCredential(
	type: ICredentialType,
	data: ICredentialDataDecryptedObject,
	options: CredentialTestOptions = {},
): Promise<INodeCredentialTestResult> {
	const test = type.test;
	if (!test) throw new Error(`${type.name} declares no test request`);
	const tempType = {
		description: {
			displayName: 'Temp',
			name: 'temp',
			group: ['transform'],
			version: 1,
			description: 'Runs the credential test request',
			defaults: { name: 'Temp-Node' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: type.name, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: test.request },
					default: '',
				},
				// n8n keeps only declared parameters: the option a declarative node's Request Options hold.
				...(options.timeoutMs ? [REQUEST_OPTIONS] : []),
			],
		},
	} as unknown as INodeType;
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'temp',
		typeVersion: 1,
		position: [0, 0],
		parameters: options.timeoutMs ? { requestOptions: { timeout: options.timeoutMs } } : {},
		credentials: { [type.name]: { id: 'credential-under-test', name: 'Under test' } },
	};
	const engine = new N8nEngine({
		nodeTypes: { temp: tempType },
		credentialTypes: [type],
		credentials: { [type.name]: data },
	});
	const workflow = engine.workflow({ nodes: [node], connections: {} });
	const context = new ExecuteContext(
		workflow,
		node,
		createAdditionalData(engine.credentialsHelper, { currentNodeParameters: node.parameters }),
		'internal',
		createRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	const routing = new RoutingNode(context, tempType, {
		id: 'credential-under-test',
		name: 'Under test',
		type: type.name,
		data,
	});
	try {
		await routing.runNode();
		return { status: 'OK', message: 'Connection successful!' };
	} catch (error) {
		return messageOf(error as ThrownByTest, test.rules ?? []);
	}
}

interface ThrownByTest {
	message: string;
	cause?: { code?: string; response?: { status: number; statusText?: string } };
}

/** What n8n 2.40.7 shows for a failed test request: a rule's message, the status text, or Node's code. */
function messageOf(
	error: ThrownByTest,
	rules: NonNullable<ICredentialType['test']>['rules'] & object,
): INodeCredentialTestResult {
	const response = error.cause?.response;
	if (response) {
		const rule = rules.find(
			(candidate) =>
				candidate.type === 'responseCode' && candidate.properties.value === response.status,
		);
		if (rule && rule.type === 'responseCode')
			return { status: 'Error', message: rule.properties.message };
		return {
			status: 'Error',
			message: response.statusText || `Received HTTP status code: ${response.status}`,
		};
	}
	if (error.cause?.code) return { status: 'Error', message: error.cause.code };
	return { status: 'Error', message: error.message };
}
