import type { ToolDefinition } from './types';

/**
 * Whether a call of `definition` with `input` is a send from the personal (QR) number, and so
 * counts against that number's send limits (5 per minute, 50 per day). Where the input chooses the
 * channel, only an explicit Business send escapes them. Tools the catalogue does not know are not.
 */
export function isQrSend(definition: ToolDefinition | undefined, input: Record<string, unknown>): boolean {
	if (!definition?.countsAsSend) return false;
	if (definition.channel === 'qr') return true;
	return definition.channel === 'input' && input.channel !== 'business';
}
