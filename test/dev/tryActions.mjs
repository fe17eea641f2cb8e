// What each `npm run try -- <example>` does: it causes the example's event, waits for the effect and
// returns one line saying what happened, or throws RunFirst with the one line saying what to run
// first. It reads only the loopback services `npm run dev` started: the sandbox's control API and its
// API with the owner's key, and n8n's REST API (as the owner).
import { chatActions } from './tryChat.mjs';
import { tryContext } from './tryContext.mjs';
import { runActions } from './tryRuns.mjs';

/**
 * The actions for the dev stack at these addresses (`webhookBaseUrl`: where n8n serves webhooks);
 * `progress` gets a line every 10 s while an action waits.
 */
export function tryExamples(where) {
	const context = tryContext(where);
	return { ...chatActions(context), ...runActions(context) };
}
