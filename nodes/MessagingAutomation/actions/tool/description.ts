import type { INodeProperties } from 'n8n-workflow';

import {
	ATTACHMENT_TOOL,
	BATCHABLE_TOOL_NAMES,
	CATALOGUE_TOOLS,
	CSV_TOOL,
	LARGE_RESPONSE_TOOLS,
	PAGINATED_TOOLS,
	TOOLS_WITH_INPUT,
} from '../toolGroups';
import { curatedFields } from './fields/curatedFields';

const FIELDS_MODE = {
	name: 'Fields Below',
	value: 'fields',
	description: 'Fill in the fields of this tool',
};
const MAPPER_MODE = {
	name: 'Map From Tool Schema',
	value: 'mapper',
	description: "Map each field of the tool's live input schema",
};
const JSON_MODE = { name: 'JSON', value: 'json', description: 'Give the whole input as JSON' };

const plainTools = TOOLS_WITH_INPUT.filter((name) => name !== CSV_TOOL && !BATCHABLE_TOOL_NAMES.includes(name));

export const toolOperationDescription: INodeProperties[] = [
	{
		displayName: 'Operation Name or ID',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		typeOptions: { loadOptionsMethod: 'getOperations', loadOptionsDependsOn: ['resource'] },
		displayOptions: { hide: { resource: ['webhook'] } },
		default: '',
		description:
			'The tool to call. The list shows the tools your API key may use. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
];

export const toolInputDescription: INodeProperties[] = [
	{
		displayName: 'Input Mode',
		name: 'inputMode',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { operation: plainTools } },
		options: [FIELDS_MODE, JSON_MODE, MAPPER_MODE],
		default: 'fields',
	},
	{
		displayName: 'Input Mode',
		name: 'inputMode',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { operation: BATCHABLE_TOOL_NAMES } },
		options: [
			FIELDS_MODE,
			{
				name: 'One Element per Item, Batched',
				value: 'batch',
				description: 'Each input item gives one element; the node sends as few calls as the per-call limit allows, without duplicates',
			},
			JSON_MODE,
			MAPPER_MODE,
		],
		default: 'batch',
	},
	{
		displayName: 'CSV Source',
		name: 'inputMode',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { operation: [CSV_TOOL] } },
		options: [
			{ name: 'Build From Input Items', value: 'csvItems', description: 'One CSV row per input item' },
			{ name: 'CSV File (Binary)', value: 'csvBinary', description: 'A CSV file in a binary property of each item' },
			{ name: 'CSV Text', value: 'fields', description: 'CSV text in a field' },
			JSON_MODE,
		],
		default: 'csvItems',
	},
	{
		displayName: 'Input Mode',
		name: 'inputMode',
		type: 'options',
		noDataExpression: true,
		displayOptions: { hide: { resource: ['webhook'], operation: ['', 'getMe', ...CATALOGUE_TOOLS] } },
		options: [MAPPER_MODE, JSON_MODE],
		default: 'mapper',
	},
	{
		displayName: 'Input',
		name: 'toolInput',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: true,
		displayOptions: { show: { inputMode: ['mapper'] } },
		typeOptions: {
			loadOptionsDependsOn: ['operation'],
			resourceMapper: {
				resourceMapperMethod: 'getToolFields',
				mode: 'add',
				fieldWords: { singular: 'field', plural: 'fields' },
				addAllFields: false,
				supportAutoMap: true,
				noFieldsError: 'This tool takes no input',
			},
		},
	},
	{
		displayName: 'JSON Input',
		name: 'jsonInput',
		type: 'json',
		default: '{}',
		displayOptions: { show: { inputMode: ['json'] } },
		description:
			'The tool input as a JSON object. It is checked against the tool schema before sending; properties the tool does not accept are refused.',
	},
	...curatedFields,
	{
		displayName: 'Phone',
		name: 'csvPhone',
		type: 'string',
		default: '={{ $json.phone }}',
		required: true,
		displayOptions: { show: { operation: [CSV_TOOL], inputMode: ['csvItems'] } },
		description: 'Phone number of the row (column phone)',
	},
	{
		displayName: 'Opt-In',
		name: 'csvOptIn',
		type: 'string',
		default: '={{ $json.opt_in }}',
		displayOptions: { show: { operation: [CSV_TOOL], inputMode: ['csvItems'] } },
		description: 'Declared opt-in of the row (column opt_in), e.g. yes or a date',
	},
	{
		displayName: 'Template Parameters',
		name: 'csvParameters',
		type: 'string',
		default: '',
		displayOptions: { show: { operation: [CSV_TOOL], inputMode: ['csvItems'] } },
		description:
			'Values for columns param_1, param_2, ... Separate values with new lines or commas, or give a JSON array (or an expression returning a list).',
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		displayOptions: { show: { operation: [CSV_TOOL], inputMode: ['csvBinary'] } },
		description: 'Name of the binary property holding the CSV file',
	},
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		displayOptions: { show: { operation: PAGINATED_TOOLS } },
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		default: 50,
		typeOptions: { minValue: 1 },
		displayOptions: { show: { operation: PAGINATED_TOOLS, returnAll: [false] } },
		description: 'Max number of results to return',
	},
	{
		displayName: 'Download File',
		name: 'download',
		type: 'boolean',
		default: false,
		displayOptions: { show: { operation: [ATTACHMENT_TOOL] } },
		description: 'Whether to download the file into a binary property while the 15-minute link is valid (QR channel files only)',
	},
	{
		displayName: 'Put Output File in Field',
		name: 'downloadPropertyName',
		type: 'string',
		default: 'data',
		displayOptions: { show: { operation: [ATTACHMENT_TOOL], download: [true] } },
		hint: 'The name of the output binary field to put the file in',
	},
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		displayOptions: { show: { operation: LARGE_RESPONSE_TOOLS } },
		description: 'Whether to return a simplified version of the response instead of the raw data',
	},
];
