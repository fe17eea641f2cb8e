import { z } from 'zod/v4';
import { defineTool } from '../defineTool';
import { chars, integer } from '../formats';

const PRICE_CATEGORIES = [
	'Marketing',
	'Utility',
	'Authentication',
	'Authentication International',
	'Service',
] as const;

export const estimateBusinessPriceTool = defineTool({
	name: 'estimate_business_price',
	displayName: 'Estimate Business Price',
	operation: {
		value: 'estimatePrice',
		name: 'Estimate Price',
		action: 'Estimate the price of messages',
		summary: 'Estimate delivered-message charges from the official rates',
	},
	resource: 'businessAccount',
	access: 'read',
	channel: 'none',
	description:
		'Estimates delivered-message charges from the official calculator rates and volume tiers. ' +
		'Excludes taxes and provider fees; not a binding quote. Since 2026-10-01 Service messages ' +
		'(free-form replies inside the 24-hour window) are billed after the first 1,000 per month per ' +
		'business number, utility templates inside the window are billed, and only freeEntryPointWindow ' +
		'(click-to-chat ads, page buttons) makes messages free.',
	input: z.strictObject({
		market: chars(2, 5)
			.describe('Recipient market, 2-5 characters')
			.meta({ examples: ['DE'] }),
		currency: chars(3, 3)
			.describe('Currency code, 3 characters')
			.meta({ examples: ['EUR'] }),
		category: z.enum(PRICE_CATEGORIES).describe('Pricing category of the messages'),
		messages: integer(1, 1_000_000_000)
			.meta({ title: 'Messages' })
			.describe('Delivered messages to price, 1-1,000,000,000'),
		alreadyDelivered: integer(0, 1_000_000_000)
			.optional()
			.describe('Volume already delivered this month for the same category and number'),
		customerServiceWindow: z
			.boolean()
			.optional()
			.describe('Whether the messages are sent inside the 24-hour customer service window'),
		freeEntryPointWindow: z
			.boolean()
			.optional()
			.describe('Whether the messages follow a free entry point (click-to-chat ad or page button)'),
	}),
});
