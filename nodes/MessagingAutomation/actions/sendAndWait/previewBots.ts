/*
 * Chat apps fetch every link in a message to draw its preview. Such a fetch must never count as
 * the person's answer, so a request that does not come from a browser is not one. n8n filters
 * with the isbot package; this list covers the agents of the chat apps' link previewers and of
 * generic crawlers, and treats a request without a user agent as a machine.
 */

const MACHINE_AGENTS = [
	/bot\b|bot\//i,
	/crawler|spider|crawl/i,
	/preview/i,
	/facebookexternalhit|facebookcatalog|meta-externalagent/i,
	/whatsapp/i,
	/telegram/i,
	/slack/i,
	/discord/i,
	/skype|teams/i,
	/embedly|iframely|outbrain|pinterest|vkshare|w3c_validator/i,
	/headless/i,
	/^(curl|wget|python-requests|go-http-client|okhttp|java|axios|node-fetch|undici)\b/i,
];

/** Whether a request with this User-Agent comes from a link previewer or another machine. */
export function isPreviewRequest(userAgent: string | undefined): boolean {
	const agent = (userAgent ?? '').trim();
	if (agent === '') return true;
	return MACHINE_AGENTS.some((pattern) => pattern.test(agent));
}
