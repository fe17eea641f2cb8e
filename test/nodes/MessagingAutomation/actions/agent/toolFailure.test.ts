import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { failedToolCall } from '../../../../../nodes/MessagingAutomation/actions/agent/toolFailure';
import { errorDetails, toNodeError } from '../../../../../nodes/MessagingAutomation/actions/errors';
import { ERROR_CODES } from '../../../../../nodes/shared/client/errorCodes';
import { toolCallFate } from '../../../../../nodes/shared/client/errorRules';
import { MessagingApiError } from '../../../../../nodes/shared/client/errors';

/*
 * Which failures of a tool call go back to the model, which go back as temporary, and which fail
 * the tool: decided per code in the one error table. The lists below are the decision as
 * docs/ai-agent.md states it; the table must agree, and the node must act on it for the client's errors and
 * for the node errors made of them.
 */

const OWNER_MUST_FIX = [
	'invalid_api_key',
	'insufficient_permission',
	'plan_required',
	'unknown_tool',
	'daily_limit_reached',
	'whatsapp_not_connected',
	'host_not_found',
	'tls_failed',
	'invalid_response',
	'unexpected_redirect',
];

/** The service could not be reached just now, after the client's own retries. */
const TEMPORARY = [
	'timeout',
	'connection_error',
	'connection_refused',
	'lookup_failed',
	'response_interrupted',
	'incomplete_response',
];

const STOP =
	'No call of this tool can succeed until the owner of the workflow fixes this; stop calling it and tell the user.';
const LATER =
	/^The service could not be reached just now \((.+)\)\. This is temporary, not a fault of the call or of the settings: call this tool again in a moment with the same input .*; if it still fails, tell the user to try again later\. Details: (.*)$/;

const node: INode = {
	id: 'tool',
	name: 'Reply in Chat',
	type: 'messagingAutomationTool',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

describe('a failed tool call, by the error table', () => {
	for (const [code, entry] of Object.entries(ERROR_CODES)) {
		const fate = OWNER_MUST_FIX.includes(code)
			? 'ownerMustFix'
			: TEMPORARY.includes(code)
				? 'temporary'
				: 'fixable';
		it(`${code}: ${fate}`, () => {
			expect(entry.forModel).toBe(fate);
			expect(toolCallFate(code, undefined)).toBe(fate);
			const error = new entry.type(`${code} happened.`, { code });
			for (const thrown of [error, toNodeError(node, error, 0)]) {
				const message = thrown.message;
				if (fate === 'ownerMustFix') {
					expect(() => failedToolCall(thrown)).toThrow(thrown);
					expect(thrown.message).toBe(`${message} ${STOP}`);
					continue;
				}
				const [[answer]] = failedToolCall(thrown);
				if (fate === 'fixable') expect(answer.json).toEqual({ error: message });
				else expect(String(answer.json.error).match(LATER)?.slice(1)).toEqual([code, message]);
			}
		});
	}

	it("takes the service's 503 and a gateway's 502/503/504 as temporary, by the HTTP status", () => {
		expect(toolCallFate('tool_error', 503)).toBe('temporary');
		expect(toolCallFate('tool_error', 500)).toBe('fixable');
		for (const status of [502, 503, 504]) {
			expect(toolCallFate(`http_${status}`, status)).toBe('temporary');
			const gateway = new MessagingApiError(`The API answered HTTP ${status}.`, {
				code: `http_${status}`,
				status,
			});
			for (const thrown of [gateway, toNodeError(node, gateway, 0)]) {
				const [[answer]] = failedToolCall(thrown);
				expect(String(answer.json.error).match(LATER)?.slice(1)).toEqual([
					`HTTP ${status}`,
					gateway.message,
				]);
			}
		}
		expect(toolCallFate('invalid_api_key', 503)).toBe('ownerMustFix');
	});

	it('gives codes the table does not hold, and errors without a code, back to the model', () => {
		expect(toolCallFate('brand_new_code', 400)).toBe('fixable');
		expect(toolCallFate(undefined, undefined)).toBe('fixable');
		const undocumented = new MessagingApiError('Something new.', { code: 'brand_new_code' });
		const wrapped = new NodeApiError(node, errorDetails(undocumented) as JsonObject, {
			message: undocumented.message,
		});
		expect(failedToolCall(wrapped)).toEqual([[{ json: { error: 'Something new.' } }]]);
		expect(failedToolCall(new Error('plain'))).toEqual([[{ json: { error: 'plain' } }]]);
	});
});
