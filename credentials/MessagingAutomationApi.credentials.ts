import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { NOT_THE_API } from '../nodes/shared/client/answer';
import { ERROR_CODES } from '../nodes/shared/client/errorCodes';

/** What the nodes say for `code` when nothing more is known: the test says the same, word for word. */
const said = (code: string) => ERROR_CODES[code].message?.({ said: '', quote: '', wait: '' }) ?? '';

export class MessagingAutomationApi implements ICredentialType {
	name = 'messagingAutomationApi';

	displayName = 'Messaging Automation API';

	icon = {
		light: 'file:messagingAutomation.svg',
		dark: 'file:messagingAutomation.dark.svg',
	} as const;

	documentationUrl =
		'https://github.com/messaging-automation/n8n-nodes-messaging-automation#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				'Created in the dashboard under Developers (shown once). Needs the top plan. Read and send scopes are granted by default; group tools and webhook management need extra scopes.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://api.your-messaging-service.com',
			description:
				'Address of the service without the /api/v1 part. A trailing slash is fine. For the local sandbox: http://127.0.0.1:4010.',
			// n8n's test shows Node's bare code for a connection that failed: the field says what it means.
			hint: 'If Test shows ECONNREFUSED, ENOTFOUND, EPROTO or ECONNABORTED under More details, or runs for minutes, the service was not reached at this address: check the host, the port, and http:// or https://.',
		},
		{
			displayName: 'Send Key As',
			name: 'authScheme',
			type: 'options',
			default: 'bearer',
			options: [
				{
					name: 'Authorization: Bearer Header',
					value: 'bearer',
					description: 'The standard scheme',
				},
				{
					name: 'Custom Header',
					value: 'header',
					description: 'The key alone in a header whose name you choose',
				},
			],
		},
		{
			displayName: 'Header Name',
			name: 'headerName',
			type: 'string',
			default: 'X-API-Key',
			required: true,
			displayOptions: { show: { authScheme: ['header'] } },
			description: 'Name of the header that carries the key',
		},
	];

	// A function rather than the generic form: the header's name is itself a credential field.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const apiKey = String(credentials.apiKey ?? '');
		const useHeader = credentials.authScheme === 'header';
		const headerName = String(credentials.headerName || 'X-API-Key');
		return {
			...requestOptions,
			headers: {
				...requestOptions.headers,
				...(useHeader ? { [headerName]: apiKey } : { Authorization: `Bearer ${apiKey}` }),
			},
		};
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{String($credentials.baseUrl).replace(/\\/+$/, "")}}',
			url: '/api/v1/me',
			method: 'GET',
			// A redirect would carry the key to wherever it points; the test fails on a 3xx instead.
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
		},
		rules: [
			{
				type: 'responseCode',
				properties: { value: 401, message: said('invalid_api_key') },
			},
			{
				// A status alone cannot tell plan_required from insufficient_permission: the plan is the
				// usual cause for GET /api/v1/me, the other is named for the case it is not.
				type: 'responseCode',
				properties: {
					value: 403,
					message: `${said('plan_required')} If the account has that plan, the key lacks a scope or the account lacks inbox storage consent: add it in the dashboard.`,
				},
			},
			{
				type: 'responseCode',
				properties: { value: 404, message: NOT_THE_API },
			},
		],
	};
}
