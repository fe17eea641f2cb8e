/*
 * The keys runs claim in n8n's processed-data store (claimStore.ts), each spelled once here: a run
 * of a message (`message|`), of an event with Deduplicate Events on (`event|`), a message claimed
 * as a possible answer (`answer|`), and an answer offer's tries and end (answers/offerTries.ts:
 * `try|`, `clean|`, `settled|`). Every process and the Catch-Up poll must spell them alike, or a
 * message runs twice.
 */

export const messageKey = (id: string) => `message|${id}`;
export const eventKey = (id: string) => `event|${id}`;
export const answerKey = (id: string) => `answer|${id}`;
/** The record that an answer's offer ended, by the run that holds it. */
export const settledKey = (id: string) => `settled|${id}`;
/** Try `attempt` of an answer's offer, claimed by the run that makes it. */
export const tryKey = (id: string, attempt: number) => `try|${id}|${attempt}`;
/** The record that try `attempt` of an answer's offer resumed nothing. */
export const cleanKey = (id: string, attempt: number) => `clean|${id}|${attempt}`;

/** The message a `message|` key names; undefined for any other key. */
export function messageOfKey(key: string): string | undefined {
	return key.startsWith('message|') ? key.slice('message|'.length) : undefined;
}

/** The message an `answer|` key names; undefined for any other key. */
export function answerOfKey(key: string): string | undefined {
	return key.startsWith('answer|') ? key.slice('answer|'.length) : undefined;
}

/** Whether `key` claims a message as a possible answer. */
export const isAnswerKey = (key: string) => answerOfKey(key) !== undefined;
