import type { INode, INodeParameters } from 'n8n-workflow';
import { afterEach, describe, expect, it } from 'vitest';

import { DEMO } from '../../../../sandbox';
import { type ChaosProxy, type Fault, startChaosProxy } from '../../../../support/chaosProxy';
import { startScriptedServer } from '../../../../support/scriptedServer';
import { agentRun, modelCall, SEND } from '../../agentRun';
import { useHarness } from '../../harness';

/*
 * What a model calling the node as a tool is told when the call fails, in n8n's engine, with the
 * tool's On Error at Continue as well as at its default. Faults the client retries in vain (a
 * service not reached just now) go back to the model as temporary; a failure only the owner can
 * fix fails the tool's run with the node's error telling the model to stop, whatever On Error says.
 */

const h = useHarness();
const HEALTH: INodeParameters = { resource: 'businessAccount', operation: 'getHealth' };
const CONTINUE: Array<INode['onError']> = ['continueRegularOutput', 'continueErrorOutput'];
const STOP =
	/No call of this tool can succeed until the owner of the workflow fixes this; stop calling it and tell the user\.$/;
const LATER = (cause: string) =>
	new RegExp(
		`^The service could not be reached just now \\(${cause}\\)\\. This is temporary, not a fault of the call or of the settings: call this tool again in a moment .* tell the user to try again later\\. Details: `,
	);

let proxy: ChaosProxy | undefined;
afterEach(async () => {
	await proxy?.stop();
	proxy = undefined;
});

/** Points the credential at `baseUrl`, with the owner's key. */
function baseUrl(url: string) {
	h.engine.credentialsHelper.set('messagingAutomationApi', {
		apiKey: h.sandbox.keys.owner,
		baseUrl: url,
		authScheme: 'bearer',
	});
}

/** Every request between the node and the sandbox meets `fault`. */
async function always(fault: Fault) {
	proxy = await startChaosProxy({
		target: h.sandbox.url,
		redirectTo: h.sandbox.url,
		choose: () => fault,
	});
	baseUrl(proxy.url);
}

/**
 * One call of the health tool as an AI tool at On Error's default and at Continue, its answer to
 * the model each time. (Continue (using error output) sends an answer to the error output here,
 * where the tool type keeps the node's main outputs; n8n gives the tool only its ai_tool output.)
 */
async function answers(parameters: INodeParameters = HEALTH) {
	const runs = [];
	for (const onError of [undefined, 'continueRegularOutput'] as const) {
		const run = await agentRun(h, [modelCall({})], parameters, { onError });
		expect({ onError, error: run.error?.message, runFailed: run.runFailed }).toEqual({
			onError,
			error: undefined,
			runFailed: false,
		});
		runs.push(String(run.json[0]?.error));
	}
	return runs;
}

describe('a tool call the owner must fix', () => {
	it('with On Error at Continue, fails the tool run and tells the model to stop (a revoked key)', async () => {
		h.usePersona('revoked');
		for (const onError of CONTINUE) {
			const run = await agentRun(
				h,
				[modelCall({ Phone_Number: DEMO.alice.phone, Text: 'Hi' })],
				SEND,
				{
					onError,
				},
			);
			// n8n 2.x gives the model the thrown error's message and marks the tool's run failed
			// (whether the execution then fails is the AI Agent's part: test/e2e/agentFailures.test.mts).
			expect(run.json).toEqual([{ error: expect.stringMatching(STOP) }]);
			expect(run.error?.message).toMatch(/^The API key was rejected .*/);
			expect(run.error?.message).toMatch(STOP);
		}
	});
});

describe('a service not reached just now, after the client retried', () => {
	it('says a refused connection (the service restarting) is temporary', async () => {
		const closed = await startScriptedServer();
		await closed.stop();
		baseUrl(closed.url);
		for (const answer of await answers()) expect(answer).toMatch(LATER('connection_refused'));
	});

	it('says a connection reset is temporary', async () => {
		await always('resetBeforeForward');
		for (const answer of await answers()) expect(answer).toMatch(LATER('connection_error'));
	});

	it("says a gateway's HTML 502 and the service's own 503 are temporary", async () => {
		h.sandbox.faults.add({ tool: 'get_business_health', kind: 'toolError503', times: 20 });
		for (const answer of await answers()) expect(answer).toMatch(LATER('HTTP 503'));
		await always('html502');
		for (const answer of await answers()) expect(answer).toMatch(LATER('HTTP 502'));
	});

	it('says an answer cut off is temporary; a page that is not the API fails the tool', async () => {
		await always('truncatedJson');
		for (const answer of await answers()) expect(answer).toMatch(LATER('HTTP 200'));
		await proxy?.stop();
		await always('html200');
		const run = await agentRun(h, [modelCall({})], HEALTH, { onError: 'continueRegularOutput' });
		expect(run.error?.message).toMatch(/an HTML page.*stop calling it/s);
	});

	it('says a time-out is temporary', async () => {
		h.sandbox.faults.add({ tool: 'get_business_health', kind: 'delay', delayMs: 1_000, times: 20 });
		const answer = await answers({ ...HEALTH, options: { timeoutSeconds: 0.2 } });
		for (const each of answer) expect(each).toMatch(LATER('timeout'));
	});
});
