import type { INodeProperties } from 'n8n-workflow';

import { optionsDescription } from './options.description';
import { RESOURCE_OPTIONS } from './resources';
import { operationProperties } from './operations';
import { callToolDescription, toolInputDescription } from './tool/description';
import { webhookDescription } from './webhook/description';

/** Every parameter of the node, in the order the editor shows them. */
export const nodeProperties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: RESOURCE_OPTIONS,
		default: 'message',
	},
	...operationProperties,
	...webhookDescription,
	...callToolDescription,
	...toolInputDescription,
	...optionsDescription,
];
