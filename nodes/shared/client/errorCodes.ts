import {
	ConnectionError,
	DailyLimitReachedError,
	type ErrorClass,
	InputValidationError,
	InsufficientPermissionError,
	InvalidApiKeyError,
	InvalidInputError,
	OutcomeUnknownError,
	PlanRequiredError,
	ProtocolError,
	RateLimitedError,
	TimeoutError,
	ToolError,
	UncertainOutcomeError,
	UnknownToolError,
	WhatsappNotConnectedError,
} from './errors';

/*
 * What each error code means, in one table: the class the client throws, whether it retries,
 * whether a write that failed this way may still have taken effect, the message for the service's
 * answer and the hint the node shows. The client (./answer), the retry policy (./retry), the
 * outcome checks and the node's messages (actions/errors.ts) all read it, through ./errorRules for
 * one error at a time.
 */

/** What a message may say about one answer. */
export interface MessageFacts {
	status?: number;
	scope?: string;
	upgradeUrl?: string;
	field?: string;
	operationId?: string;
	tool?: string;
	/** The service's own words as a sentence, with a leading space, or ''. */
	said: string;
	/** ` Quote request id …` or ''. */
	quote: string;
	/** ` in 45 s` when the service said how long to wait, or ''. */
	wait: string;
}

/**
 * A failed AI tool call: `fixable` by the model (other input, a call after the wait it is told),
 * `temporary` (not reached just now, already retried), or `ownerMustFix` (credential, key, plan).
 */
export type ToolCallFate = 'fixable' | 'temporary' | 'ownerMustFix';

/**
 * `never`; `backoff` (exponential, full jitter); `retryAfter` (the service's wait when it fits under
 * the cap, backoff when it gave none); `backoffOn503` (only the service's temporary unavailability).
 */
export type RetryRule = 'never' | 'backoff' | 'retryAfter' | 'backoffOn503';

export interface ErrorCode {
	type: ErrorClass;
	/** Who gives the code: the service in its answers, or the client about an exchange. */
	source: 'service' | 'client';
	retry: RetryRule;
	/** A write that failed this way may still have taken effect. */
	mayHaveActed: boolean;
	/** What an AI model calling the node as a tool is told: see ToolCallFate. */
	forModel: ToolCallFate;
	hint: string;
	/** The message for the service's answer (client codes word theirs where they arise). */
	message?: (facts: MessageFacts) => string;
}

const sameKey =
	'Rerun with the same idempotency key, or check it with Other › Get Operation Outcome; never resend with a new key.';

export const ERROR_CODES: Readonly<Record<string, ErrorCode>> = {
	invalid_api_key: {
		type: InvalidApiKeyError,
		source: 'service',
		retry: 'never',
		mayHaveActed: false,
		forModel: 'ownerMustFix',
		hint: 'Open the Messaging Automation credential and paste an active API key.',
		// The service's own words only repeat the cause; the node shows them under the message.
		message: () =>
			'The API key was rejected (invalid, revoked, or account access unavailable). Paste an active key from the dashboard into the Messaging Automation credential.',
	},
	insufficient_permission: {
		type: InsufficientPermissionError,
		source: 'service',
		retry: 'never',
		mayHaveActed: false,
		forModel: 'ownerMustFix',
		hint: 'Give the key the scope this call needs (or give inbox storage consent) in the dashboard.',
		message: ({ scope }) =>
			`The API key is not allowed to do this, or the account has not given inbox storage consent.${scope ? ` It needs the scope "${scope}".` : ''} Add the scope to the key (or give consent) in the dashboard, then try again.`,
	},
	plan_required: {
		type: PlanRequiredError,
		source: 'service',
		retry: 'never',
		mayHaveActed: false,
		forModel: 'ownerMustFix',
		hint: 'Upgrade the account to the plan that includes API keys and webhooks.',
		message: ({ upgradeUrl }) =>
			`API keys and webhooks need the highest paid plan. Upgrade the account${upgradeUrl ? ` at ${upgradeUrl}` : ' on the pricing page'}, then try again.`,
	},
	unknown_tool: {
		type: UnknownToolError,
		source: 'service',
		retry: 'never',
		mayHaveActed: false,
		forModel: 'ownerMustFix',
		hint: 'Choose another operation, or give the key the scope this tool needs.',
		message: ({ tool, said }) =>
			`The tool${tool ? ` "${tool}"` : ''} is not available to this API key.${said} Pick a tool from the list the key can use, or give the key the scope the tool needs.`,
	},
	invalid_input: {
		type: InvalidInputError,
		source: 'service',
		retry: 'never',
		mayHaveActed: false,
		forModel: 'fixable',
		hint: 'Fix the named field; nothing was done.',
		message: ({ field, said }) =>
			`The service rejected the input${field ? ` (field "${field}")` : ''}.${said} Fix the value and run again; nothing was done.`,
	},
	rate_limited: {
		type: RateLimitedError,
		source: 'service',
		retry: 'retryAfter',
		mayHaveActed: false,
		forModel: 'fixable',
		hint: 'Wait for the Retry-After time, or lower the Rate Limit Budget option when other workflows share the key.',
		message: ({ said, wait }) =>
			`Too many calls per minute for this API key or QR number.${said} Retry${wait || ' later'} with the same idempotency key, or lower the node's Rate Limit Budget if other workflows share the key.`,
	},
	daily_limit_reached: {
		type: DailyLimitReachedError,
		source: 'service',
		retry: 'never',
		mayHaveActed: false,
		forModel: 'ownerMustFix',
		hint: 'Send again after 00:00 UTC, or use the Business channel, which has no daily cap from the service.',
		message: ({ said, wait }) =>
			`The personal (QR) number has used its daily API sends.${said} The counter resets at 00:00 UTC${wait}; send again after that, or use the Business channel.`,
	},
	whatsapp_not_connected: {
		type: WhatsappNotConnectedError,
		source: 'service',
		retry: 'never',
		mayHaveActed: false,
		forModel: 'ownerMustFix',
		hint: 'Reconnect the number in the dashboard; Account › Get shows which channels are connected.',
		message: ({ said }) =>
			`The channel this call needs is not connected.${said} Check the account's numbers (Account > Get, GET /api/v1/me) and reconnect the number in the dashboard.`,
	},
	tool_error: {
		type: ToolError,
		source: 'service',
		retry: 'backoffOn503',
		mayHaveActed: false,
		forModel: 'fixable',
		hint: 'Check the input and the account state; quote the request id if you contact support.',
		message: ({ status, tool, said, quote }) =>
			status === 503
				? `The service is temporarily unavailable.${said} Try again in a moment.${quote}`
				: `The tool${tool ? ` "${tool}"` : ''} failed.${said} Check the input and the account state.${quote}`,
	},
	outcome_unknown: {
		type: OutcomeUnknownError,
		source: 'service',
		retry: 'never',
		mayHaveActed: true,
		forModel: 'fixable',
		hint: 'Rerun with the same idempotency key, or check it with Other › Get Operation Outcome; never resend with a new key.',
		message: ({ operationId, said }) =>
			`The service cannot tell yet whether the call took effect${operationId ? ` (operation ${operationId})` : ''}.${said} Check it with Other › Get Operation Outcome (or Message › Get Status); do not resend with a new idempotency key.`,
	},
	input_validation: {
		type: InputValidationError,
		source: 'client',
		retry: 'never',
		mayHaveActed: false,
		forModel: 'fixable',
		hint: 'Correct the named field and run the node again.',
	},
	timeout: {
		type: TimeoutError,
		source: 'client',
		retry: 'backoff',
		mayHaveActed: true,
		forModel: 'temporary',
		hint: 'Rerun with the same idempotency key: the service then answers with the first result instead of acting twice.',
	},
	connection_error: {
		type: ConnectionError,
		source: 'client',
		retry: 'backoff',
		mayHaveActed: true,
		forModel: 'temporary',
		hint: 'Check the Base URL and the network, then rerun with the same idempotency key.',
	},
	connection_refused: {
		type: ConnectionError,
		source: 'client',
		retry: 'backoff',
		mayHaveActed: false,
		forModel: 'temporary',
		hint: 'Check the Base URL and the network; nothing reached the service.',
	},
	host_not_found: {
		type: ConnectionError,
		source: 'client',
		retry: 'backoff',
		mayHaveActed: false,
		forModel: 'ownerMustFix',
		hint: "Check the credential's Base URL for a typo; nothing reached the service.",
	},
	lookup_failed: {
		type: ConnectionError,
		source: 'client',
		retry: 'backoff',
		mayHaveActed: false,
		forModel: 'temporary',
		hint: "n8n's DNS did not answer for the Base URL's host just now; nothing reached the service. Check n8n's DNS if it keeps happening.",
	},
	tls_failed: {
		type: ConnectionError,
		source: 'client',
		retry: 'never',
		mayHaveActed: false,
		forModel: 'ownerMustFix',
		hint: "Check the scheme of the credential's Base URL and the service's certificate; nothing reached the service.",
	},
	response_interrupted: {
		type: ConnectionError,
		source: 'client',
		retry: 'backoff',
		mayHaveActed: true,
		forModel: 'temporary',
		hint: sameKey,
	},
	invalid_response: {
		type: ProtocolError,
		source: 'client',
		retry: 'backoff',
		mayHaveActed: true,
		forModel: 'ownerMustFix',
		hint: 'Something between n8n and the service answered; check proxies, then rerun with the same idempotency key.',
	},
	incomplete_response: {
		type: ProtocolError,
		source: 'client',
		retry: 'backoff',
		mayHaveActed: true,
		forModel: 'temporary',
		hint: sameKey,
	},
	unexpected_redirect: {
		type: ProtocolError,
		source: 'client',
		retry: 'backoff',
		mayHaveActed: true,
		forModel: 'ownerMustFix',
		hint: 'Set the Base URL to the address the service really answers on; redirects are never followed with the key.',
	},
	outcome_uncertain: {
		type: UncertainOutcomeError,
		source: 'client',
		retry: 'never',
		mayHaveActed: true,
		forModel: 'fixable',
		hint: 'Check it with Other › Get Operation Outcome, or rerun with the same idempotency key; never resend with a new key.',
	},
};
