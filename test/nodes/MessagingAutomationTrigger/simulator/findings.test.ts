/**
 * The simulator has teeth: issue 43's findings, as fixed cases. While a finding is in
 * KNOWN_FINDINGS each case must still break an invariant other than a limit's (the simulator finds
 * the bug, not n8n's crash limit); once it is fixed and taken off the list, each case must hold
 * every invariant, the limits' too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { installProcessedDataStore } from '../../../support/processedData';
import { ANSWER_FINDING_CASES } from './answerCases';
import { CONTROL_CASES, CRASH_CASE, FINDING_CASES } from './cases';
import { KNOWN_FINDINGS, LIMIT_RULES } from './knownBroken';
import { LAG_FINDING_CASES } from './lagCases';
import { ProcessPool } from './processPool';
import { checkCase } from './property';
import { installVirtualTime, uninstallVirtualTime } from './virtualTime';

const pool = new ProcessPool();
beforeAll(() => {
	installProcessedDataStore();
	installVirtualTime();
});
afterAll(() => uninstallVirtualTime());

for (const [finding, cases] of Object.entries({
	...FINDING_CASES,
	...ANSWER_FINDING_CASES,
	...LAG_FINDING_CASES,
})) {
	const known = KNOWN_FINDINGS.has(finding);
	describe(`finding ${finding}${known ? ' (known broken: the simulator must find it)' : ''}`, () => {
		for (const { name, case: c } of cases) {
			it(name, async () => {
				const found = await checkCase(c, pool);
				const said = found.map((violation) => `${violation.rule}: ${violation.detail}`).join('\n');
				if (known)
					expect(
						found.filter((violation) => !LIMIT_RULES.includes(violation.rule)).length,
						`finding ${finding} not found in: ${JSON.stringify(c)}\n${said}`,
					).toBeGreaterThan(0);
				else expect(found, said).toEqual([]);
				console.log(`finding ${finding}, ${name}:\n${said || 'every invariant holds'}`);
			});
		}
	});
}

describe("controls: cases today's code gets right hold every invariant", () => {
	for (const { name, case: c } of CONTROL_CASES)
		it(name, async () => expect(await checkCase(c, pool)).toEqual([]));
});

it("n8n killed inside the second message's quiet window, the account's message between: nothing is lost", async () => {
	expect(await checkCase(CRASH_CASE, pool)).toEqual([]);
});
