import { type ToolHandler, str, toolError } from './context';

export type Category =
	| 'Marketing'
	| 'Utility'
	| 'Authentication'
	| 'Authentication International'
	| 'Service';

/** Sandbox rate card in USD per delivered message (plausible figures, not the provider's). */
const RATES: Record<string, Record<Category, number>> = {
	US: {
		Marketing: 0.025,
		Utility: 0.004,
		Authentication: 0.0135,
		'Authentication International': 0.0135,
		Service: 0.003,
	},
	GB: {
		Marketing: 0.0529,
		Utility: 0.022,
		Authentication: 0.0358,
		'Authentication International': 0.0358,
		Service: 0.004,
	},
	DE: {
		Marketing: 0.1365,
		Utility: 0.0456,
		Authentication: 0.0768,
		'Authentication International': 0.0768,
		Service: 0.006,
	},
	BR: {
		Marketing: 0.0625,
		Utility: 0.008,
		Authentication: 0.0315,
		'Authentication International': 0.0315,
		Service: 0.003,
	},
	IN: {
		Marketing: 0.0107,
		Utility: 0.0014,
		Authentication: 0.0014,
		'Authentication International': 0.028,
		Service: 0.001,
	},
	ID: {
		Marketing: 0.0411,
		Utility: 0.025,
		Authentication: 0.03,
		'Authentication International': 0.136,
		Service: 0.002,
	},
	MX: {
		Marketing: 0.0305,
		Utility: 0.0085,
		Authentication: 0.0239,
		'Authentication International': 0.0239,
		Service: 0.003,
	},
};
const REST_OF_WORLD: Record<Category, number> = {
	Marketing: 0.0604,
	Utility: 0.0077,
	Authentication: 0.0224,
	'Authentication International': 0.0224,
	Service: 0.004,
};
/** USD to the billing currency. */
const FX: Record<string, number> = {
	USD: 1,
	EUR: 0.92,
	GBP: 0.79,
	INR: 83.2,
	BRL: 5.05,
	MXN: 17.1,
	IDR: 15600,
};

/** Monthly volume tiers (per category and number) with their discount; marketing and service have none. */
const TIERS = [
	{ from: 0, to: 100_000, multiplier: 1 },
	{ from: 100_000, to: 500_000, multiplier: 0.95 },
	{ from: 500_000, to: 2_500_000, multiplier: 0.9 },
	{ from: 2_500_000, to: Infinity, multiplier: 0.85 },
];
const TIERED: readonly Category[] = ['Utility', 'Authentication', 'Authentication International'];

/** Billing note dated 2026-10-01: free Service allowance per month per business number. */
export const FREE_SERVICE_PER_MONTH = 1000;
export const BILLING_NOTE_DATE = Date.UTC(2026, 9, 1);

interface Input {
	category: Category;
	messages: number;
	alreadyDelivered: number;
	customerServiceWindow: boolean;
	freeEntryPointWindow: boolean;
	newRules: boolean;
}

/** How many of the messages are free under the billing rules in force. */
function freeMessages(i: Input): number {
	if (i.freeEntryPointWindow) return i.messages;
	if (i.category === 'Service') {
		if (!i.newRules) return i.messages;
		return Math.min(i.messages, Math.max(0, FREE_SERVICE_PER_MONTH - i.alreadyDelivered));
	}
	if (i.category === 'Utility' && i.customerServiceWindow && !i.newRules) return i.messages;
	return 0;
}

function segments(start: number, count: number, category: Category) {
	if (!TIERED.includes(category))
		return [{ from: start, to: start + count, multiplier: 1, messages: count }];
	return TIERS.flatMap((tier) => {
		const from = Math.max(start, tier.from);
		const to = Math.min(start + count, tier.to);
		return to > from ? [{ from, to, multiplier: tier.multiplier, messages: to - from }] : [];
	});
}

/** USD rate of one delivered message, rest-of-world when the market has no card. */
export function usdRate(market: string, category: Category): number {
	return (RATES[market] ?? REST_OF_WORLD)[category];
}

export const round = (n: number) => Math.round(n * 10_000) / 10_000;

const estimateBusinessPrice: ToolHandler = (ctx) => {
	const market = (str(ctx.input, 'market') ?? '').toUpperCase();
	const currency = (str(ctx.input, 'currency') ?? '').toUpperCase();
	const fx = FX[currency];
	if (fx === undefined)
		throw toolError(
			`Currency ${currency} is not offered; use one of ${Object.keys(FX).join(', ')}.`,
		);
	const input: Input = {
		category: ctx.input.category as Category,
		messages: ctx.input.messages as number,
		alreadyDelivered: (ctx.input.alreadyDelivered as number | undefined) ?? 0,
		customerServiceWindow: ctx.input.customerServiceWindow === true,
		freeEntryPointWindow: ctx.input.freeEntryPointWindow === true,
		newRules: ctx.state.clock.now() >= BILLING_NOTE_DATE,
	};
	const rate = usdRate(market, input.category) * fx;
	const free = freeMessages(input);
	const billable = input.messages - free;
	const tiers = segments(input.alreadyDelivered + free, billable, input.category).map((s) => ({
		from: s.from,
		to: s.to,
		messages: s.messages,
		rate: round(rate * s.multiplier),
		cost: round(s.messages * rate * s.multiplier),
	}));
	const notes = [
		'Estimate of delivered-message charges only: excludes taxes and provider fees; not a binding quote.',
		input.newRules
			? 'Since 2026-10-01: Service messages are billed after the first 1,000 per month per business number; utility templates inside the customer service window are billed; only a free entry point window makes messages free.'
			: 'Before 2026-10-01: Service messages and utility templates inside the customer service window are free.',
	];
	if (!RATES[market])
		notes.push(`No rate card for market ${market}; the rest-of-world rate was used.`);
	if (input.category === 'Service' && !input.customerServiceWindow && !input.freeEntryPointWindow) {
		notes.push(
			'Service messages are free-form replies and can only be sent inside the 24-hour customer service window.',
		);
	}
	return {
		market,
		currency,
		category: input.category,
		messages: input.messages,
		already_delivered: input.alreadyDelivered,
		free_messages: free,
		billable_messages: billable,
		rate_per_message: round(rate),
		tiers,
		estimated_total: round(tiers.reduce((sum, t) => sum + t.cost, 0)),
		billing_rules: input.newRules ? '2026-10-01' : 'before-2026-10-01',
		binding: false,
		notes,
	};
};

export const pricingHandlers: Record<string, ToolHandler> = {
	estimate_business_price: estimateBusinessPrice,
};
