import { describe, expect, it } from 'vitest';

import { errorDetails } from '../../../../nodes/MessagingAutomation/actions/errors';
import { errorFromResponse } from '../../../../nodes/shared/client/answer';
import { ERROR_CODES } from '../../../../nodes/shared/client/errorCodes';
import { mayHaveActed, retryRuleOf } from '../../../../nodes/shared/client/errorRules';
import { MessagingApiError } from '../../../../nodes/shared/client/errors';
import { DEFAULT_RETRY_OPTIONS, retryDecision } from '../../../../nodes/shared/client/retry';

/** One table decides: every code's class, retry, may-have-acted and hint reach the client, the policy and the node. */
describe('ERROR_CODES', () => {
	for (const [code, entry] of Object.entries(ERROR_CODES)) {
		it(`${code}: ${entry.type.name}, retry ${entry.retry}, ${entry.mayHaveActed ? 'may have acted' : 'did not act'}`, () => {
			const status = code === 'tool_error' ? 503 : 400;
			const error = new entry.type(`${code} happened`, { code, status });
			expect(retryRuleOf(error)).toBe(entry.retry);
			expect(mayHaveActed(error)).toBe(entry.mayHaveActed);
			expect(retryDecision(error, 1, DEFAULT_RETRY_OPTIONS, () => 0).retry).toBe(
				entry.retry !== 'never',
			);
			expect(errorDetails(error).hint).toBe(entry.hint);
			if (entry.source === 'service') {
				const answered = errorFromResponse({
					status,
					headers: {},
					body: { error: { code, message: 'said' } },
				});
				expect(answered).toBeInstanceOf(entry.type);
				expect(answered.message).toBe(
					entry.message?.({ status, tool: undefined, said: ' said.', quote: '', wait: '' }),
				);
			}
		});
	}

	it('leaves codes the API does not document, and client codes in a service answer, to the base class and the status', () => {
		for (const code of ['brand_new_code', 'timeout', 'connection_error']) {
			const answered = errorFromResponse({
				status: 502,
				headers: {},
				body: { error: { code, message: 'x' } },
			});
			expect(Object.getPrototypeOf(answered)).toBe(MessagingApiError.prototype);
			expect(retryRuleOf(answered)).toBe('backoff');
			expect(mayHaveActed(answered)).toBe(true);
			// The hint follows the code alone, as the node always showed it.
			expect(errorDetails(answered).hint).toBe(ERROR_CODES[code]?.hint);
		}
		const refused = errorFromResponse({
			status: 418,
			headers: {},
			body: { error: { code: 'teapot', message: 'x' } },
		});
		expect(retryRuleOf(refused)).toBe('never');
		expect(mayHaveActed(refused)).toBe(false);
	});
});
