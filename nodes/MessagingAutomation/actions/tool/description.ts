import type { INodeProperties } from 'n8n-workflow';

import { inputModesForModels } from '../agent/modelFields';
import { CALL_ANOTHER_TOOL } from '../operations';
import { forTools, inputModeSet, toolsThat } from '../toolGroups';
import { windowFieldsDescription } from '../businessWindow/sendFields';
import { curatedFields } from './fields/curatedFields';
import { historyOutputProperties } from './historyOutput';

const FIELDS_MODE = {
	name: 'Fields Below',
	value: 'fields',
	description: 'Fill in the fields of this operation',
};
const MAPPER_MODE = {
	name: 'Map Each Field',
	value: 'mapper',
	description: 'Map every field the service lists for this tool',
};
const JSON_MODE = {
	name: 'JSON',
	value: 'json',
	description: 'Give the whole input as one JSON object',
};

const plainTools = toolsThat((tool) => inputModeSet(tool) === 'plain');
const batchTools = toolsThat((tool) => inputModeSet(tool) === 'batch');
const csvTools = toolsThat((tool) => inputModeSet(tool) === 'csv');
const pagedTools = toolsThat((tool) => tool.paging !== undefined);
const linkTools = toolsThat((tool) => tool.downloadsLink === true);
const simplifiedTools = toolsThat((tool) => tool.simplify === true);
const anotherTool = { show: { resource: ['other'], operation: [CALL_ANOTHER_TOOL.value] } };

/** Other › Call Another Tool: which tool, by its API name. */
export const anotherToolDescription: INodeProperties[] = [
	{
		displayName: 'Tool Name or ID',
		name: 'toolName',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getOtherTools' },
		required: true,
		default: '',
		displayOptions: anotherTool,
		description:
			'A tool your API key may use that has no operation of its own here. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
];

/** The input parameters; the AI Agent tool gets only typed, single-call modes (agent/modelFields.ts). */
export const toolInputDescription: INodeProperties[] = inputModesForModels([
	...forTools(plainTools, (displayOptions) => ({
		displayName: 'Input Mode',
		name: 'inputMode',
		type: 'options',
		noDataExpression: true,
		displayOptions,
		options: [FIELDS_MODE, JSON_MODE, MAPPER_MODE],
		default: 'fields',
	})),
	...forTools(batchTools, (displayOptions) => ({
		displayName: 'Input Mode',
		name: 'inputMode',
		type: 'options',
		noDataExpression: true,
		displayOptions,
		options: [
			FIELDS_MODE,
			{
				name: 'One per Item, Batched',
				value: 'batch',
				description:
					'Each input item gives one entry; the node makes as few calls as the limits allow, without duplicates',
			},
			JSON_MODE,
			MAPPER_MODE,
		],
		default: 'batch',
	})),
	...forTools(csvTools, (displayOptions) => ({
		displayName: 'CSV Source',
		name: 'inputMode',
		type: 'options',
		noDataExpression: true,
		displayOptions,
		options: [
			{
				name: 'Build From Input Items',
				value: 'csvItems',
				description: 'One CSV row per input item',
			},
			{
				name: 'CSV File (Binary)',
				value: 'csvBinary',
				description: 'A CSV file in a binary field of each item',
			},
			{ name: 'CSV Text', value: 'fields', description: 'CSV text in a field' },
			JSON_MODE,
		],
		default: 'csvItems',
	})),
	{
		displayName: 'Input Mode',
		name: 'inputMode',
		type: 'options',
		noDataExpression: true,
		displayOptions: anotherTool,
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
			loadOptionsDependsOn: ['resource', 'operation', 'toolName'],
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
			'The input as one JSON object. It is checked before sending; properties the tool does not accept are refused.',
	},
	...curatedFields,
	...windowFieldsDescription,
	...forTools(
		csvTools,
		(displayOptions) => ({
			displayName: 'Phone',
			name: 'csvPhone',
			type: 'string',
			default: '={{ $json.phone }}',
			required: true,
			displayOptions,
			description: 'Phone number of the row (the phone column)',
		}),
		{ inputMode: ['csvItems'] },
	),
	...forTools(
		csvTools,
		(displayOptions) => ({
			displayName: 'Opt-In',
			name: 'csvOptIn',
			type: 'string',
			default: '={{ $json.opt_in }}',
			displayOptions,
			description: 'Declared opt-in of the row (the opt-in column), such as yes or a date',
		}),
		{ inputMode: ['csvItems'] },
	),
	...forTools(
		csvTools,
		(displayOptions) => ({
			displayName: 'Template Values',
			name: 'csvParameters',
			type: 'string',
			default: '',
			displayOptions,
			description:
				'Values for the template columns, in order. Separate values with new lines or commas, or give a JSON array (or an expression returning a list).',
		}),
		{ inputMode: ['csvItems'] },
	),
	...forTools(
		csvTools,
		(displayOptions) => ({
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			displayOptions,
			description: 'Name of the binary field that holds the CSV file',
		}),
		{ inputMode: ['csvBinary'] },
	),
	...forTools(pagedTools, (displayOptions) => ({
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		displayOptions,
		description: 'Whether to return all results or only up to a given limit',
	})),
	...forTools(
		pagedTools,
		(displayOptions) => ({
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			default: 50,
			typeOptions: { minValue: 1 },
			displayOptions,
			description: 'Max number of results to return',
		}),
		{ returnAll: [false] },
	),
	...forTools(linkTools, (displayOptions) => ({
		displayName: 'Download File',
		name: 'download',
		type: 'boolean',
		default: false,
		displayOptions,
		description:
			'Whether to download the file into a binary field while the 15-minute link is valid (QR files only)',
	})),
	...forTools(
		linkTools,
		(displayOptions) => ({
			displayName: 'Put Output File in Field',
			name: 'downloadPropertyName',
			type: 'string',
			default: 'data',
			displayOptions,
			hint: 'The name of the output binary field to put the file in',
		}),
		{ download: [true] },
	),
	...historyOutputProperties,
	...forTools(simplifiedTools, (displayOptions) => ({
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		displayOptions,
		description: 'Whether to return a simplified version of the response instead of the raw data',
	})),
]);
