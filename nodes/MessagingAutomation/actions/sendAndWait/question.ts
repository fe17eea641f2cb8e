import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/*
 * The text of the question: the message, then one line per link. A chat message has no buttons
 * for links, so each link stands on its own line after its label, where every chat app makes it
 * tappable.
 */

export type ResponseType = 'approval' | 'freeText' | 'customForm';

export interface AnswerLink {
	label: string;
	url: string;
}

/** The links the person can tap, each a signed URL that resumes this execution. */
export function answerLinks(
	context: IExecuteFunctions,
	responseType: ResponseType,
	extra: Record<string, string>,
): AnswerLink[] {
	const link = (label: string, approved: boolean) => ({
		label,
		url: context.getSignedResumeUrl({ ...extra, approved: String(approved) }),
	});
	if (responseType !== 'approval') {
		return [
			link(
				String(context.getNodeParameter('options.messageButtonLabel', 0, 'Respond') || 'Respond'),
				true,
			),
		];
	}
	const approval = context.getNodeParameter('approvalOptions.values', 0, {}) as IDataObject;
	const approve = link(String(approval.approveLabel || 'Approve'), true);
	if (approval.approvalType !== 'double') return [approve];
	return [approve, link(String(approval.disapproveLabel || 'Decline'), false)];
}

/** What n8n writes for an object inside a text expression. */
const OBJECT_IN_TEXT = '[object Object]';

/** The Human review tool's parameters, one "Name: value" line each; undefined outside Human review. */
function reviewedParameters(context: IExecuteFunctions): string | undefined {
	let parameters: unknown;
	try {
		parameters = context.evaluateExpression('{{ $tool.parameters }}', 0);
	} catch {
		return undefined;
	}
	if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters))
		return undefined;
	return Object.entries(parameters)
		.map(
			([name, value]) =>
				`${name.replaceAll('_', ' ')}: ${typeof value === 'string' ? value : JSON.stringify(value)}`,
		)
		.join('\n');
}

/**
 * The Message as the person reads it. n8n's Human review text puts `{{ $tool.parameters }}` (an
 * object) in the message, which n8n renders "[object Object]": the person would approve blind.
 * There the parameters are written out instead.
 */
export function questionMessage(context: IExecuteFunctions): string {
	const message = String(context.getNodeParameter('message', 0, '')).trim();
	if (!message.includes(OBJECT_IN_TEXT)) return message;
	const parameters = reviewedParameters(context);
	return parameters === undefined ? message : message.split(OBJECT_IN_TEXT).join(parameters);
}

/** The message, the line saying how to answer in words (with Answer in Chat), then the links. */
export function questionText(
	message: string,
	links: readonly AnswerLink[],
	instructions?: string,
): string {
	const answerInWords = instructions ? ['', instructions] : [];
	return [
		message.trim(),
		...answerInWords,
		'',
		...links.map((link) => `${link.label}: ${link.url}`),
	].join('\n');
}
