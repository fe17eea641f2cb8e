import type { z } from 'zod/v4';
import type { OutcomeLookup, ToolAccess, ToolDefinition } from './types';

/** Scope a key needs by default for each kind of call (assumed names; group tools override). */
const DEFAULT_SCOPE: Record<ToolAccess, string> = {
	read: 'messenger.read',
	write: 'messenger.send',
};

type Defaulted = 'scope' | 'ownerOnly' | 'countsAsSend' | 'outcomeCheck';

/** A tool entry as written in `tools/`: only the metadata that differs from the defaults. */
export type ToolSpec<Input extends z.ZodObject> = Omit<ToolDefinition<Input>, Defaulted> &
	Partial<Pick<ToolDefinition<Input>, Defaulted>>;

/** A write is checked with get_operation; a send can also be found by its key with get_send_status. */
export function defaultOutcomeCheck(access: ToolAccess, countsAsSend: boolean): readonly OutcomeLookup[] {
	if (access === 'read') return [];
	return countsAsSend ? ['operation', 'sendStatus'] : ['operation'];
}

/**
 * Completes an entry with its defaults (scope from access, not owner-only, not a counted send, the
 * outcome check of its kind) while keeping the exact zod type, so `z.input<typeof someTool.input>`
 * stays precise.
 */
export function defineTool<Input extends z.ZodObject>(
	spec: ToolSpec<Input>,
): ToolDefinition<Input> {
	const countsAsSend = spec.countsAsSend ?? false;
	return {
		scope: DEFAULT_SCOPE[spec.access],
		ownerOnly: false,
		countsAsSend,
		outcomeCheck: defaultOutcomeCheck(spec.access, countsAsSend),
		...spec,
	};
}
