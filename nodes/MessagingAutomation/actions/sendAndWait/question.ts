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
export function answerLinks(context: IExecuteFunctions, responseType: ResponseType, extra: Record<string, string>): AnswerLink[] {
	const link = (label: string, approved: boolean) => ({
		label,
		url: context.getSignedResumeUrl({ ...extra, approved: String(approved) }),
	});
	if (responseType !== 'approval') {
		return [link(String(context.getNodeParameter('options.messageButtonLabel', 0, 'Respond') || 'Respond'), true)];
	}
	const approval = context.getNodeParameter('approvalOptions.values', 0, {}) as IDataObject;
	const approve = link(String(approval.approveLabel || 'Approve'), true);
	if (approval.approvalType !== 'double') return [approve];
	return [approve, link(String(approval.disapproveLabel || 'Decline'), false)];
}

export function questionText(message: string, links: readonly AnswerLink[]): string {
	return [message.trim(), '', ...links.map((link) => `${link.label}: ${link.url}`)].join('\n');
}
