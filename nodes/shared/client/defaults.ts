/** `defaults` overridden by the options actually given: an option set to undefined keeps its default. */
export function withDefaults<T extends object>(defaults: T, given: Partial<T> | undefined): T {
	const result = { ...defaults };
	for (const [name, value] of Object.entries(given ?? {})) {
		if (value !== undefined) (result as Record<string, unknown>)[name] = value;
	}
	return result;
}
