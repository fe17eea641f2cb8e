/**
 * What the scripted model (test/e2e/support/scriptedModel.mts) does for the AI reply bot example
 * (test/dev/workflows/ai-reply-bot.json): one reply through the tool that shows what the agent was
 * given, the customer's grouped messages and how much history came with them. `npm run dev` and
 * the end-to-end suite play the same script.
 */
export function replyBotPlan(prompt: string): Array<Record<string, unknown>> {
	const [earlier = '', now = ''] = prompt.split('\nThe customer now writes:\n');
	const history = earlier.replace(/^Earlier in this chat:\n/, '').trim();
	const lines = history === '' || history === '(nothing yet)' ? 0 : history.split('\n').length;
	const said = now.trim().split('\n').join(' / ');
	return [{ Text: `(scripted model) You wrote: "${said}". I can see ${lines} earlier message${lines === 1 ? '' : 's'} of this chat.` }];
}
