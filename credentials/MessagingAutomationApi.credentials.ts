import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

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
				properties: {
					value: 401,
					message:
						'The API key is missing, invalid or revoked (invalid_api_key). Copy a current key from the dashboard under Developers.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The key was refused (403). Either the account plan does not include API keys and webhooks (plan_required: upgrade to the top plan on the pricing page), or the key lacks a needed scope or inbox storage consent (insufficient_permission: edit the key or the consent in the dashboard).',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'Nothing answered at <Base URL>/api/v1/me. Check the Base URL: it is the service address without /api/v1.',
				},
			},
		],
	};
}
