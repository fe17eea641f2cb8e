import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	failedToolCall,
	modelCanFix,
} from '../../../../../nodes/MessagingAutomation/actions/agent/toolFailure';
import { errorDetails, toNodeError } from '../../../../../nodes/MessagingAutomation/actions/errors';
import { ERROR_CODES } from '../../../../../nodes/shared/client/errorCodes';
import { MessagingApiError } from '../../../../../nodes/shared/client/errors';

/*
 * Which failures of a tool call go back to the model and which fail the tool: decided per code in
 * the one error table. The lists below are the decision as docs/ai-agent.md states it; the table must
 * agree, and the node must act on it for the client's errors and for the node errors made of them.
 */

const MODEL_CANNOT_FIX = [
	'invalid_api_key',
	'insufficient_permission',
	'plan_required',
	'unknown_tool',
	'daily_limit_reached',
	'whatsapp_not_connected',
	'connection_refused',
	'host_not_found',
	'tls_failed',
	'invalid_response',
	'unexpected_redirect',
];

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
		const fixable = !MODEL_CANNOT_FIX.includes(code);
		it(`${code}: ${fixable ? 'goes back to the model' : 'fails the tool call'}`, () => {
			expect(entry.modelCanFix).toBe(fixable);
			expect(modelCanFix(code)).toBe(fixable);
			const error = new entry.type(`${code} happened.`, { code, status: 400 });
			for (const thrown of [error, toNodeError(node, error, 0)]) {
				const message = thrown.message;
				if (fixable) {
					expect(failedToolCall(thrown)).toEqual([[{ json: { error: message } }]]);
				} else {
					expect(() => failedToolCall(thrown)).toThrow(thrown);
					expect(thrown.message).toBe(
						`${message} No call of this tool can succeed until the owner of the workflow fixes this; stop calling it and tell the user.`,
					);
				}
			}
		});
	}

	it('gives codes the table does not hold, and errors without a code, back to the model', () => {
		expect(modelCanFix('brand_new_code')).toBe(true);
		expect(modelCanFix(undefined)).toBe(true);
		const undocumented = new MessagingApiError('Something new.', { code: 'brand_new_code' });
		const wrapped = new NodeApiError(node, errorDetails(undocumented) as JsonObject, {
			message: undocumented.message,
		});
		expect(failedToolCall(wrapped)).toEqual([[{ json: { error: 'Something new.' } }]]);
		expect(failedToolCall(new Error('plain'))).toEqual([[{ json: { error: 'plain' } }]]);
	});
});
