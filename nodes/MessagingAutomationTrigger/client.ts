import { sleep, type IHookFunctions, type IWebhookFunctions } from 'n8n-workflow';

import { MessagingClient, type RetryOptions } from '../shared/client';
import { readServiceCredential } from '../shared/transport/credential';
import { createHttpRequestTransport } from '../shared/transport/httpRequestTransport';

/**
 * The shared client over n8n's authenticated request helper. `retry` lets the webhook handler
 * keep its calls short: a delivery must be answered within the sender's ten-second time-out.
 */
export async function triggerClient(
	context: IHookFunctions | IWebhookFunctions,
	options: { timeoutMs?: number; retry?: Partial<RetryOptions> } = {},
): Promise<MessagingClient> {
	const transport = await createHttpRequestTransport(context);
	const { secrets } = await readServiceCredential(context);
	return new MessagingClient({ transport, sleep, secrets, ...options });
}
