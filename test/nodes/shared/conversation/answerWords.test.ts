import { describe, expect, it } from 'vitest';

import {
	asksBack,
	choiceOf,
	normalizeAnswer,
	type ApprovalChoice,
} from '../../../../nodes/shared/conversation/answerWords';

const CHOICES: ApprovalChoice[] = [
	{ approved: true, number: '1', words: ['Approve', 'yes', '👍'] },
	{ approved: false, number: '2', words: ['Decline', 'no', '👎'] },
];

describe('a question mark makes a reply no answer: it asks back', () => {
	it.each(['1?', 'yes?', 'no?', '2?!', '*1*?', '１？', '¿sí', 'yes ؟', 'why?'])(
		'%j answers nothing',
		(text) => {
			expect(asksBack(text)).toBe(true);
			expect(choiceOf(text, CHOICES)).toBeUndefined();
		},
	);
});

describe('choiceOf: the whole text names one option', () => {
	it.each([
		['1', true, true],
		['2', false, true],
		['1.', true, true],
		['１', true, true],
		['1)', true, true],
		['(2)', false, true],
		['*1*', true, true],
		['_2_', false, true],
		['~1~', true, true],
		['1️⃣', true, true],
		['2️⃣', false, true],
		['١', true, true],
		['۱', true, true],
		['٢', false, true],
		['१', true, true],
		['\u200B1', true, true],
		['1\u200D', true, true],
		['\u200F1', true, true],
		[' *1* ', true, true],
		[' YES! ', true, false],
		['Yes.', true, false],
		['*yes*', true, false],
		['  approve  ', true, false],
		['DECLINE!!', false, false],
		['no…', false, false],
		['👍', true, false],
		['👍🏽', true, false],
		['👍️', true, false],
		['👎', false, false],
	])('%j → approved %s (by number: %s)', (text, approved, byNumber) => {
		expect(choiceOf(text, CHOICES)).toEqual({ approved, byNumber });
	});

	it.each([
		'why?',
		'one moment',
		'yes please',
		'11',
		'1 2',
		'12',
		'١١',
		'1️⃣2️⃣',
		'',
		'   ',
		'!',
		'**',
		'\u200B',
		'ok',
		'okay maybe',
		'1 👍',
	])('%j answers nothing', (text) => {
		expect(choiceOf(text, CHOICES)).toBeUndefined();
	});

	it('a word listed for both options answers nothing', () => {
		expect(
			choiceOf('ok', [
				{ approved: true, number: '1', words: ['ok'] },
				{ approved: false, number: '2', words: ['OK'] },
			]),
		).toBeUndefined();
	});

	it('normalizes case, inner spaces and marks around the text, not leading words', () => {
		expect(normalizeAnswer('  Go   Ahead!  ')).toBe('go ahead');
		expect(normalizeAnswer('*Go ahead*')).toBe('go ahead');
	});
});
