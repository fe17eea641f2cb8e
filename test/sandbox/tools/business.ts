import type { MessageRecord } from '../model';
import type { ToolContext, ToolHandler } from './context';
import { candidateCountries } from './countries';
import {
	BILLING_NOTE_DATE,
	FREE_SERVICE_PER_MONTH,
	round,
	usdRate,
	type Category,
} from './pricing';

const DAY_MS = 24 * 60 * 60_000;
const PRICING_REFERENCE_URL = 'https://developers.messaging-automation.example/business/pricing';

/** Own Business messages of the last `days` days (default 30). */
function recentSends(ctx: ToolContext): { days: number; sends: MessageRecord[] } {
	const days = (ctx.input.days as number | undefined) ?? 30;
	const since = ctx.state.clock.now() - days * DAY_MS;
	const sends = ctx.account.messages.filter(
		(m) => m.channel === 'business' && m.fromMe && m.timestamp >= since,
	);
	return { days, sends };
}

const getBusinessAccount: ToolHandler = (ctx) => ({
	phone: ctx.account.channels.business.phone,
	display_name: ctx.account.name,
	business_account_id: `waba_${ctx.account.id}`,
	sending_state: 'available',
	quality_rating: 'GREEN',
	messaging_limit: 'TIER_1K',
	note: 'Provider credentials are never returned.',
});

const getBusinessHealth: ToolHandler = (ctx) => ({
	account_review: 'APPROVED',
	business_verification: 'VERIFIED',
	phone_quality: 'GREEN',
	messaging_limit: { tier: 'TIER_1K', unique_recipients_per_24h: 1000 },
	entities: [
		{
			entity_type: 'BUSINESS',
			id: `biz_${ctx.account.id}`,
			can_send_message: 'AVAILABLE',
			errors: [],
			suggested_fixes: [],
		},
		{
			entity_type: 'WABA',
			id: `waba_${ctx.account.id}`,
			can_send_message: 'AVAILABLE',
			errors: [],
			suggested_fixes: [],
		},
		{
			entity_type: 'PHONE_NUMBER',
			id: ctx.account.channels.business.phone,
			can_send_message: 'AVAILABLE',
			errors: [],
			suggested_fixes: [],
		},
	],
});

const getBusinessBillingContext: ToolHandler = () => ({
	currency: 'USD',
	pricing_reference_url: PRICING_REFERENCE_URL,
	pricing_model: 'per_delivered_message',
	billing_rules: '2026-10-01',
	free_service_messages_per_month: FREE_SERVICE_PER_MONTH,
	note: 'Reference only, not a live quote. Use estimate_business_price for an estimate.',
});

const getBusinessMessagingAnalytics: ToolHandler = (ctx) => {
	const { days, sends } = recentSends(ctx);
	const delivered = sends.filter((m) => m.status === 'delivered' || m.status === 'read');
	return {
		days,
		phone: ctx.account.channels.business.phone,
		accepted: sends.length,
		sent: sends.filter((m) => m.status !== 'failed' && m.status !== 'accepted').length,
		delivered: delivered.length,
		failed: sends.filter((m) => m.status === 'failed').length,
		note: 'Counts only: not pricing and not per-recipient delivery confirmation.',
	};
};

function pricingCategory(m: MessageRecord): Category {
	if (m.templateCategory === 'MARKETING') return 'Marketing';
	if (m.templateCategory === 'UTILITY') return 'Utility';
	return 'Service';
}

/** Extra tool: delivered volume and sandbox-rate cost per pricing category. */
const getBusinessPricingAnalytics: ToolHandler = (ctx) => {
	const { days, sends } = recentSends(ctx);
	const delivered = sends.filter((m) => m.status === 'delivered' || m.status === 'read');
	const newRules = ctx.state.clock.now() >= BILLING_NOTE_DATE;
	const byCategory = new Map<Category, MessageRecord[]>();
	for (const m of delivered)
		byCategory.set(pricingCategory(m), [...(byCategory.get(pricingCategory(m)) ?? []), m]);
	const categories = [...byCategory].map(([category, list]) => {
		const free =
			category === 'Service'
				? newRules
					? Math.min(list.length, FREE_SERVICE_PER_MONTH)
					: list.length
				: 0;
		const cost = list
			.slice(free)
			.reduce(
				(sum, m) => sum + usdRate(candidateCountries(m.conversationId)[0] ?? '', category),
				0,
			);
		return {
			category,
			delivered: list.length,
			free,
			billable: list.length - free,
			cost: round(cost),
		};
	});
	return {
		days,
		currency: 'USD',
		categories,
		total_cost: round(categories.reduce((sum, c) => sum + c.cost, 0)),
		note: 'Sandbox rates; excludes taxes and provider fees.',
	};
};

export const businessHandlers: Record<string, ToolHandler> = {
	get_business_account: getBusinessAccount,
	get_business_health: getBusinessHealth,
	get_business_billing_context: getBusinessBillingContext,
	get_business_messaging_analytics: getBusinessMessagingAnalytics,
	get_business_pricing_analytics: getBusinessPricingAnalytics,
};
