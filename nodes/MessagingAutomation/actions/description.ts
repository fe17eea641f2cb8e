import type { INodeProperties } from 'n8n-workflow';

import { sendLimitProperties } from './agent/sendLimit';
import { toolDescriptionProperties } from './agent/toolDescription';
import { optionsDescription } from './options.description';
import { RESOURCE_OPTIONS } from './resources';
import { sendAndWaitDescription } from './sendAndWait/description';
import { operationProperties } from './operations';
import { anotherToolDescription, toolInputDescription } from './tool/description';
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
	...toolDescriptionProperties,
	...webhookDescription,
	...anotherToolDescription,
	...toolInputDescription,
	...sendAndWaitDescription,
	...sendLimitProperties,
	...optionsDescription,
];
