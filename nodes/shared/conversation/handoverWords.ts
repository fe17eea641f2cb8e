/*
 * Whether a customer's message holds one of the Hand-Over Words, as a whole word or phrase. Both
 * sides are compared in one form (NFC, lower case, spaces collapsed), so an accent typed as its own
 * combining mark and a precomposed one are the same letter. A match may not cut a word: a letter,
 * digit or combining mark right beside it continues the word (`बात` is not in `बाती`, whose last
 * letter carries a vowel sign; `cafe` is not in `café`), anything else ends it (spaces, punctuation,
 * full-width punctuation such as `，。！`).
 *
 * Chinese, Japanese, Thai and the other scripts written without spaces have no such edge between
 * words. There a phrase may start anywhere, and one of one or two letters must end a run of its
 * script's letters: most such words are two characters long and most are also the start of longer
 * ones (`人工` in `人工智能`, artificial intelligence), while a request ends with what it asks for
 * (`转人工`, `我要人工！`). A phrase of three letters or more is specific enough to count anywhere
 * (`人工客服在吗`, `ขอคุยกับเจ้าหน้าที่ครับ`).
 */

/** How a text and a hand-over word are compared. */
export const normalizeText = (text: string) =>
	text.trim().replace(/\s+/g, ' ').toLowerCase().normalize('NFC');

/** The list's own separators, full-width and ideographic commas included (`人工，客服`). */
const LIST_SEPARATOR = /[,，、､﹐﹑]/u;

const WORD_CHARACTER = /[\p{L}\p{M}\p{N}_]/u;
const MARK = /\p{M}/u;
const LETTER = /[\p{L}\p{N}]/u;
const UNSPACED_SCRIPTS = [
	/\p{Script=Han}/u,
	/\p{Script=Hiragana}/u,
	/\p{Script=Katakana}/u,
	/\p{Script=Thai}/u,
	/\p{Script=Lao}/u,
	/\p{Script=Khmer}/u,
	/\p{Script=Myanmar}/u,
];
/** Letters of a phrase in a script without spaces up to which it must end a run. */
const SHORT_PHRASE = 2;

/** Which script without spaces `character` is written in, or -1. */
const unspacedScript = (character: string) =>
	UNSPACED_SCRIPTS.findIndex((script) => script.test(character));

interface Phrase {
	text: string;
	first: string;
	last: string;
	short: boolean;
}

function phraseOf(text: string): Phrase {
	const characters = [...text];
	return {
		text,
		first: characters[0],
		last: characters[characters.length - 1],
		short: characters.filter((character) => LETTER.test(character)).length <= SHORT_PHRASE,
	};
}

/** The code point that ends just before `index`, whole (a surrogate pair is one character). */
function characterBefore(text: string, index: number): string | undefined {
	if (index <= 0) return undefined;
	const low = text.charCodeAt(index - 1);
	const pair = index >= 2 && low >= 0xdc00 && low <= 0xdfff;
	return text.slice(pair ? index - 2 : index - 1, index);
}

function characterAt(text: string, index: number): string | undefined {
	const point = text.codePointAt(index);
	return point === undefined ? undefined : String.fromCodePoint(point);
}

/** Whether the character before a phrase continues the word the phrase starts. */
function joinsBefore(outside: string | undefined, phrase: Phrase): boolean {
	if (outside === undefined || !WORD_CHARACTER.test(outside)) return false;
	return unspacedScript(phrase.first) < 0 && unspacedScript(outside) < 0;
}

/** Whether the character after a phrase continues the word the phrase ends. */
function joinsAfter(outside: string | undefined, phrase: Phrase): boolean {
	if (outside === undefined || !WORD_CHARACTER.test(outside)) return false;
	// A combining mark belongs to the letter before it: the phrase would cut that letter in two.
	if (MARK.test(outside)) return true;
	const script = unspacedScript(phrase.last);
	if (script < 0 && unspacedScript(outside) < 0) return true;
	return phrase.short && script >= 0 && unspacedScript(outside) === script;
}

function contains(text: string, phrase: Phrase): boolean {
	let from = text.indexOf(phrase.text);
	while (from >= 0) {
		const after = characterAt(text, from + phrase.text.length);
		if (!joinsBefore(characterBefore(text, from), phrase) && !joinsAfter(after, phrase))
			return true;
		from = text.indexOf(phrase.text, from + 1);
	}
	return false;
}

/** Whether `text` holds one of `words` (as the user listed them) as a whole word or phrase. */
export function containsHandoverWord(text: string, words: readonly string[]): boolean {
	const normalized = normalizeText(text);
	return words
		.flatMap((word) => word.split(LIST_SEPARATOR))
		.map(normalizeText)
		.some((word) => word !== '' && contains(normalized, phraseOf(word)));
}
