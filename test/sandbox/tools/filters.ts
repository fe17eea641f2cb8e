import { digits } from '../inbox';
import { type ToolHandler, str } from './context';

/** Adds to whichever list (include or exclude) is current; the mode itself is a dashboard setting. */
const addNumberFilter: ToolHandler = (ctx) => {
	const { account } = ctx;
	const single = str(ctx.input, 'phoneNumber');
	const numbers = single !== undefined ? [single] : (ctx.input.phoneNumbers as string[]);
	const name = str(ctx.input, 'name') ?? null;
	const added: string[] = [];
	const alreadyListed: string[] = [];
	for (const phone of numbers) {
		if (account.filters.some((entry) => digits(entry.phone) === digits(phone))) alreadyListed.push(phone);
		else {
			account.filters.push({ phone, name });
			added.push(phone);
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
