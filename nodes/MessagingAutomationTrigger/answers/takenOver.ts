/*
 * What a run knows of the offers an earlier run began, once it took them over (answerReoffer.ts),
 * for its own offers to use (answerPass.ts, offerTries.ts).
 */

/**
 * The messages whose offer a run makes without claiming each try or recording the end (`ids`: it
 * claimed their tries left), those of them whose end's record it took first (`endsHeld`: given back
 * if n8n cancels it), and the ones an earlier run made a try of that may have resumed the question
 * (`tried`). A Retry also names earlier answers another run ended or decides now (`notOffered`):
 * they are that run's, and run in no run here.
 */
export interface TakenOver {
	ids: ReadonlySet<string>;
	endsHeld: ReadonlySet<string>;
	tried: ReadonlySet<string>;
	notOffered?: ReadonlySet<string>;
}

export const NONE_TAKEN_OVER: TakenOver = { ids: new Set(), endsHeld: new Set(), tried: new Set() };
