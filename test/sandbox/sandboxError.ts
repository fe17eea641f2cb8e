/** An error the sandbox answers with the spec's body: `{ error: { code, message, ... } }`. */
export class SandboxApiError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		/** Extra fields of the error object: retry_after, upgrade_url, field, operation_id. */
		readonly extra: Record<string, unknown> = {},
		/** Extra response headers, e.g. Retry-After. */
		readonly headers: Record<string, string> = {},
	) {
		super(message);
	}

	toBody() {
		return { error: { code: this.code, message: this.message, ...this.extra } };
	}
}
