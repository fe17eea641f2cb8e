import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { AnswerCheck, ApprovalChoice } from '../../../shared/conversation/answers';
import type { ResponseType } from './question';

/*
 * Answer in Chat: the fields that let a person answer by writing back, and the rules they make.
 * The execute side words the instructions; the webhook side checks a reply against the same
 * parameters, so both read them through one function.
 */

/** Reads a parameter by name in either context (execute: item 0; webhook: the node's). */
export type ParameterReader = (name: string, fallback: unknown) => unknown;

/*
 * No "ok", "y" or "n" by default: a casual "ok" to whatever the bot said last must never approve.
 * Unquoted, even 1, 2 and these count only while the question is the account's last message (see
 * answers.ts).
 */
const APPROVE_WORDS = 'yes, approve, approved, 👍';
const DECLINE_WORDS = 'no, decline, declined, reject, 👎';
const FREE_TEXT_INSTRUCTIONS = 'Reply to this message with your answer';

export function chatAnswerProperties(show: Record<string, string[]>): INodeProperties[] {
	const onChat = { ...show, responseType: ['approval', 'freeText'], answerInChat: [true] };
	return [
		{
			displayName: 'Answer in Chat',
			name: 'answerInChat',
			type: 'boolean',
			default: false,
			description:
				'Whether the person can also answer by writing in the chat. A reply answers the newest question while your account has written nothing after it, or the question it quotes; a reply with a question mark is no answer. The links keep working either way.',
			displayOptions: { show: { ...show, responseType: ['approval', 'freeText'] } },
		},
		{
			displayName:
				'Replies reach this execution through an active Messaging Automation Trigger for the same account with Pass Answers to Send and Wait turned on. Without one, only the links answer.',
			name: 'answerInChatNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: onChat },
		},
		{
			displayName: 'Chat Instructions',
			name: 'chatInstructions',
			type: 'string',
			default: '',
			placeholder: 'e.g. Reply 1 to Approve or 2 to Decline',
			description:
				'The line under the message that says how to answer in words. Empty: "Reply 1 to Approve or 2 to Decline" with your labels, or "Reply to this message with your answer" for free text.',
			displayOptions: { show: onChat },
		},
		{
			displayName: 'Approve Words',
			name: 'approveWords',
			type: 'string',
			default: APPROVE_WORDS,
			description:
				'Replies that approve besides 1 and the approve label, separated by commas. Case, spaces and marks around the reply do not matter. Like 1, they count only before your account writes again after the question, or in a reply quoting it.',
			displayOptions: { show: { ...onChat, responseType: ['approval'] } },
		},
		{
			displayName: 'Decline Words',
			name: 'declineWords',
			type: 'string',
			default: DECLINE_WORDS,
			description:
				'Replies that decline besides 2 and the decline label (with Approve and Decline), separated by commas. Like the approve words, they count only before your account writes again after the question, or in a reply quoting it.',
			displayOptions: { show: { ...onChat, responseType: ['approval'] } },
		},
		{
			displayName: 'Who May Answer in a Group',
			name: 'groupNumbers',
			type: 'string',
			default: '',
			placeholder: 'e.g. 4915112345678, 4917098765432',
			description:
				'Phone numbers whose replies count in a group chat, separated by commas. Empty: any member. In a one-to-one chat the person asked answers. The links in the message are not limited by this: anyone who can see them can use them.',
			displayOptions: { show: onChat },
		},
	];
}

const list = (value: unknown) =>
	String(value ?? '')
		.split(',')
		.map((word) => word.trim())
		.filter((word) => word !== '');

interface Labels {
	approve: string;
	decline?: string;
}

function labelsOf(read: ParameterReader): Labels {
	const approval = read('approvalOptions.values', {}) as IDataObject;
	return {
		approve: String(approval.approveLabel || 'Approve'),
		decline:
			approval.approvalType === 'double'
				? String(approval.disapproveLabel || 'Decline')
				: undefined,
	};
}

export function chatAnswersOn(read: ParameterReader): boolean {
	const responseType = read('responseType', 'approval') as ResponseType;
	return responseType !== 'customForm' && read('answerInChat', false) === true;
}

/** The line the person reads under the question. */
export function chatInstructions(read: ParameterReader): string {
	const own = String(read('chatInstructions', '')).trim();
	if (own !== '') return own;
	if (read('responseType', 'approval') === 'freeText') return FREE_TEXT_INSTRUCTIONS;
	const { approve, decline } = labelsOf(read);
	return decline ? `Reply 1 to ${approve} or 2 to ${decline}` : `Reply 1 to ${approve}`;
}

/** What counts as an answer, by the node's parameters; `until` from the question's links. */
export function answerCheck(read: ParameterReader, until: number | undefined): AnswerCheck {
	const groupNumbers = list(read('groupNumbers', ''));
	if (read('responseType', 'approval') === 'freeText')
		return { rules: { kind: 'freeText' }, groupNumbers, until };
	const { approve, decline } = labelsOf(read);
	const choices: ApprovalChoice[] = [
		{ approved: true, number: '1', words: [approve, ...list(read('approveWords', APPROVE_WORDS))] },
	];
	if (decline)
		choices.push({
			approved: false,
			number: '2',
			words: [decline, ...list(read('declineWords', DECLINE_WORDS))],
		});
	return { rules: { kind: 'approval', choices }, groupNumbers, until };
}
