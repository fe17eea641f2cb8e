export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** A promise's outcome as a value, so failures can be sorted without re-throwing from a catch. */
export async function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
	return await promise.then(
		(value): Settled<T> => ({ ok: true, value }),
		(error: unknown): Settled<T> => ({ ok: false, error }),
	);
}
