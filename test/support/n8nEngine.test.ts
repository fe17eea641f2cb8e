import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MessagingAutomationApi } from '../../credentials/MessagingAutomationApi.credentials';
import { N8nEngine } from './n8nEngine';

/** Calls GET <baseUrl>/echo through n8n's authenticated request helper. */
class EchoNode implements INodeType {
	description = {
		displayName: 'Echo',
		name: 'echo',
		group: ['transform'],
		version: 1,
		description: 'Test node',
		defaults: { name: 'Echo' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'messagingAutomationApi', required: true }],
		properties: [{ displayName: 'Word', name: 'word', type: 'string', default: '' }],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const credentials = await this.getCredentials('messagingAutomationApi');
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < this.getInputData().length; i++) {
			const word = this.getNodeParameter('word', i) as string;
			const body = await this.helpers.httpRequestWithAuthentication.call(
				this,
				'messagingAutomationApi',
				{
					method: 'GET',
					url: `${String(credentials.baseUrl)}/echo`,
					json: true,
				},
			);
			out.push({ json: { word, seen: body }, pairedItem: { item: i } });
		}
		return [out];
	}
}

describe('n8nEngine', () => {
	let url = '';
	const seen: IncomingHttpHeaders[] = [];
	const server = createServer((req, res) => {
		seen.push(req.headers);
		res.setHeader('content-type', 'application/json');
		res.end(
			JSON.stringify({
				auth: req.headers.authorization ?? null,
				custom: req.headers['x-api-key'] ?? null,
			}),
		);
	});
	beforeAll(async () => {
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(() => server.close());

	const workflow = {
		nodes: [
			{
				id: '1',
				name: 'Start',
				type: 'harness.start',
				typeVersion: 1,
				position: [0, 0] as [number, number],
				parameters: {},
			},
			{
				id: '2',
				name: 'Echo',
				type: 'echo',
				typeVersion: 1,
				position: [200, 0] as [number, number],
				parameters: { word: '={{ $json.word }}!' },
				credentials: { messagingAutomationApi: { id: 'c1', name: 'Sandbox' } },
			},
		],
		connections: { Start: { main: [[{ node: 'Echo', type: 'main' as const, index: 0 }]] } },
	};

	it('runs a workflow, resolves expressions and applies the credential', async () => {
		const engine = new N8nEngine({
			nodeTypes: { echo: new EchoNode() },
			credentialTypes: [new MessagingAutomationApi()],
			credentials: {
				messagingAutomationApi: { apiKey: 'k_test', baseUrl: url, authScheme: 'bearer' },
			},
		});
		const result = await engine.run(workflow, {
			node: 'Start',
			items: [{ json: { word: 'a' } }, { json: { word: 'b' } }],
		});
		expect(result.error).toBeUndefined();
		expect(result.output('Echo').map((i) => i.json)).toEqual([
			{ word: 'a!', seen: { auth: 'Bearer k_test', custom: null } },
			{ word: 'b!', seen: { auth: 'Bearer k_test', custom: null } },
		]);
	});

	it('uses the custom header scheme', async () => {
		const engine = new N8nEngine({
			nodeTypes: { echo: new EchoNode() },
			credentialTypes: [new MessagingAutomationApi()],
			credentials: {
				messagingAutomationApi: {
					apiKey: 'k2',
					baseUrl: url,
					authScheme: 'header',
					headerName: 'X-API-Key',
				},
			},
		});
		const result = await engine.run(workflow, { node: 'Start', items: [{ json: { word: 'c' } }] });
		expect(result.output('Echo')[0].json.seen).toEqual({ auth: null, custom: 'k2' });
	});
});
