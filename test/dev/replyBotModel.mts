import type { Turn } from '../e2e/support/scriptedModel.mjs';
import { EARLIER, NOTHING_YET, NOW } from './historyInPrompt.mjs';

/**
 * What the scripted model (test/e2e/support/scriptedModel.mts) does for the AI reply bot example
 * (test/dev/workflows/ai-reply-bot.json): one reply through the tool that shows what the agent was
 * given, the customer's grouped messages and how many earlier messages of the chat came with them:
 * the memory's turns on n8n 2.x, the history pasted into the prompt on 1.x. `npm run dev` and the
 * end-to-end suite play the same script.
 */
export function replyBotPlan(prompt: string, earlier: Turn[]): Array<Record<string, unknown>> {
	const [pasted, now] = prompt.startsWith(EARLIER)
		? prompt.slice(EARLIER.length).split(NOW)
		: [undefined, prompt];
	const history = pasted?.trim() ?? '';
	const seen =
		pasted === undefined
			? earlier.length
			: history === '' || history === NOTHING_YET
				? 0
				: history.split('\n').length;
	const said = now.trim().split('\n').join(' / ');
	return [
		{
			Text: `(scripted model) You wrote: "${said}". I can see ${seen} earlier message${seen === 1 ? '' : 's'} of this chat.`,
		},
	];
}
