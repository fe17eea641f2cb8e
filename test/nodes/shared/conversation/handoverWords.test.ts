import { describe, expect, it } from 'vitest';

import { containsHandoverWord } from '../../../../nodes/shared/conversation/handoverWords';

/*
 * Hand-over words as customers write them. Each case names the words listed (as the trigger's
 * setting holds them) and a message; the README's Human Takeover section states the same rules.
 */

const hands = (words: string[], text: string) => containsHandoverWord(text, words);

describe('hand-over words: combining marks', () => {
	it('does not find a word whose last letter carries a mark in the text (Devanagari vowel signs)', () => {
		// बाती (wick) is बात (talk) with the vowel sign ी: a different word.
		expect(hands(['बात'], 'बाती जलाओ')).toBe(false);
		expect(hands(['बात'], 'मुझे किसी से बात करनी है')).toBe(true);
		expect(hands(['बात'], 'बात।')).toBe(true);
	});

	it('does not find an unaccented word in its accented form written with a combining accent', () => {
		expect(hands(['cafe'], 'un cafe\u0301 por favor')).toBe(false);
		expect(hands(['cafe'], 'un café por favor')).toBe(false);
		expect(hands(['cafe'], 'cafe please')).toBe(true);
	});

	it('finds an accented word however either side writes the accent', () => {
		const composed = 'café';
		const decomposed = 'cafe\u0301';
		expect(hands([composed], `un ${decomposed} por favor`)).toBe(true);
		expect(hands([decomposed], `un ${composed} por favor`)).toBe(true);
		expect(hands(['ATENCIÓN'], 'quiero atencio\u0301n humana')).toBe(true);
	});
});

describe('hand-over words: full-width punctuation', () => {
	it('reads full-width and ideographic commas as separators, in the list as in the text', () => {
		expect(hands(['人工，客服'], '转人工')).toBe(true);
		expect(hands(['人工、真人'], '我要找真人')).toBe(true);
		expect(hands(['human，agent'], 'agent please')).toBe(true);
		for (const text of ['人工，客服', '人工。', '人工、谢谢', '请转人工！', '人工？', '（人工）'])
			expect({ text, found: hands(['人工'], text) }).toEqual({ text, found: true });
		expect(hands(['human'], 'human，please')).toBe(true);
	});
});

describe('hand-over words: scripts written without spaces', () => {
	it('counts a one- or two-letter word where it ends the request, not at the start of a longer word', () => {
		expect(hands(['人工'], '人工智能怎么用')).toBe(false);
		expect(hands(['人工'], '你们用的是人工智能吗')).toBe(false);
		expect(hands(['客服'], '客服机器人好用吗')).toBe(false);
		expect(hands(['人工'], '我要人工客服')).toBe(false);
		for (const text of [
			'转人工',
			'我要人工',
			'请帮我转人工！',
			'人工',
			'人工 please',
			'我要人工，谢谢',
		])
			expect({ text, found: hands(['人工'], text) }).toEqual({ text, found: true });
		// Where the script changes a word ends: kana after a kanji word, Latin after Han.
		expect(hands(['人間'], '人間と話したい')).toBe(true);
		expect(hands(['客服'], '客服ok?')).toBe(true);
		expect(hands(['human'], 'human客服')).toBe(true);
		// A phrase of three letters or more counts anywhere.
		expect(hands(['人工客服'], '我要人工客服')).toBe(true);
		expect(hands(['人工客服'], '人工客服在吗')).toBe(true);
		expect(hands(['转人工'], '请帮我转人工吧')).toBe(true);
		expect(hands(['เจ้าหน้าที่'], 'ขอคุยกับเจ้าหน้าที่ครับ')).toBe(true);
		expect(hands(['担当者'], '担当者と話したい')).toBe(true);
	});

	it('counts a letter outside the Basic Multilingual Plane as one letter', () => {
		// 𠮷 (U+20BB7) is one Han letter written as two UTF-16 units.
		expect(hands(['𠮷'], '我要𠮷')).toBe(true);
		expect(hands(['𠮷'], '𠮷野家')).toBe(false);
	});
});
