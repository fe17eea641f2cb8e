/*
 * How a reply's text is read as an answer: the forms people and their phones give a short reply
 * ("*1*" in bold, "1)", "1️⃣", "١" on an Arabic keyboard, a zero-width space pasted in front) all
 * say one thing. Only the whole text counts: "11", "1 2" or "yes please" name no option. A reply
 * with a question mark asks back ("yes?" means "what?"): it is no answer, whatever else it says.
 */

export interface ApprovalChoice {
	approved: boolean;
	/** The option's number, as the question's instructions name it ("Reply 1 to Approve"). */
	number: string;
	/** Further replies that choose the option (the button label, "yes", 👍). */
	words: readonly string[];
}

export interface Choice {
	approved: boolean;
	/** Whether the reply was the option's number rather than one of its words. */
	byNumber: boolean;
}

/** Emoji presentation selectors, the keycap mark and skin tones: 1️⃣ is 1, 👍🏽 is 👍. */
const EMOJI_MARKS = /\uFE0E|\uFE0F|\u20E3|\p{Emoji_Modifier}/gu;
/** Characters that show nothing: zero-width spaces and joiners, direction marks, soft hyphens. */
const INVISIBLE = /[\u00AD\u061C\u200B-\u200F\u2060-\u2064\uFEFF]/gu;
/** Chat apps' bold, italic, strike-through and code marks, brackets around a list number. */
const LEADING_MARKS = /^[\s*_~`([]+/u;
const TRAILING_MARKS = /[\s*_~`)\].!,;:…。！]+$/u;
/** Question marks of any script: Latin, full-width, Spanish, Arabic, reversed. */
const QUESTION_MARK = /[?？¿؟⸮]/u;
const DECIMAL_DIGIT = /\p{Nd}/u;

/**
 * A decimal digit of any script as 0-9: Unicode lays each script's digits out as runs of ten from
 * its zero, so the digit is its distance from the start of its run.
 */
function asciiDigit(digit: string): string {
	const code = digit.codePointAt(0) as number;
	if (code < 0x80) return digit;
	let start = code;
	while (DECIMAL_DIGIT.test(String.fromCodePoint(start - 1))) start--;
	return String((code - start) % 10);
}

/** A text as answers compare it: case, spacing, marks around it and the script of its digits left out. */
export function normalizeAnswer(text: string): string {
	let said = text.normalize('NFKC').replace(INVISIBLE, '').replace(EMOJI_MARKS, '');
	let before;
	do {
		before = said;
		said = said.replace(LEADING_MARKS, '').replace(TRAILING_MARKS, '');
	} while (said !== before);
	return said
		.replace(/\s+/g, ' ')
		.replace(/\p{Nd}/gu, asciiDigit)
		.toLowerCase();
}

/** Whether a reply asks back instead of answering: it holds a question mark. */
export function asksBack(text: string): boolean {
	return QUESTION_MARK.test(text.normalize('NFKC'));
}

/** The option a text chooses, or undefined when it names none (or, ambiguously, several). */
export function choiceOf(text: string, choices: readonly ApprovalChoice[]): Choice | undefined {
	const said = normalizeAnswer(text);
	if (said === '' || asksBack(text)) return undefined;
	const matches = (word: string) => normalizeAnswer(word) === said;
	const chosen = choices.filter((choice) => matches(choice.number) || choice.words.some(matches));
	if (chosen.length !== 1) return undefined;
	return { approved: chosen[0].approved, byNumber: matches(chosen[0].number) };
}
