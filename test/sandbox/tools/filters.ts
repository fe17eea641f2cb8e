import { digits } from '../inbox';
import { invalidInput, type ToolHandler, str } from './context';

/**
 * Adds to whichever list (include or exclude) is current; the mode itself is a dashboard setting.
 * A name labels the single phoneNumber only.
 */
const addNumberFilter: ToolHandler = (ctx) => {
	const { account } = ctx;
	const single = str(ctx.input, 'phoneNumber');
	const many = (ctx.input.phoneNumbers as string[] | undefined) ?? [];
	// The spec leaves open what neither field means, and lets both be given: the service's own rules.
	if (single === undefined && many.length === 0)
		throw invalidInput('phoneNumber', 'is required unless phoneNumbers is given');
	const name = str(ctx.input, 'name') ?? null;
	const added: string[] = [];
	const alreadyListed: string[] = [];
	const entries = [
		...(single === undefined ? [] : [{ phone: single, name }]),
		...many.map((phone) => ({ phone, name: null })),
	];
	for (const entry of entries) {
		if (account.filters.some((listed) => digits(listed.phone) === digits(entry.phone)))
			alreadyListed.push(entry.phone);
		else {
			account.filters.push(entry);
			added.push(entry.phone);
		}
	}
	return {
		list: account.filterMode,
		added,
		already_listed: alreadyListed,
		list_size: account.filters.length,
		note: 'Filters change visibility and future sending and saving; they do not prove opt-in or delete history.',
	};
};

export const filterHandlers: Record<string, ToolHandler> = { add_number_filter: addNumberFilter };
