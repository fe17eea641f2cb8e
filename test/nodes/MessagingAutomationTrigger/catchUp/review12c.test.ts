import { describe, expect, it } from 'vitest';

import type { INodeParameters } from 'n8n-workflow';

import type { N8nPollHost } from '../../../support/n8nPoll';
import { catchUpBeside, quickGrouping, useCatchUpBesideTrigger } from './catchUpFixtures';

/*
 * Review 12c (helper-71): a Catch-Up test run beside a run still going, with Poll Times as n8n
 * holds them (R12-3, R12-6: pollTimes.ts pollSpanMs). The shapes pollSpanMs reads are n8n's
 * (n8n-workflow cron.d.ts TriggerTime; n8n-core's commonPollingParameters): everyX with `value`
 * and `unit` 'minutes' or 'hours', everyHour, everyDay, everyWeek, everyMonth, custom. Every gap
 * n8n's cron leaves (toCronExpression) is at most the span read, so a slower Poll Times is never
 * taken for an ended one; a custom cron counts as a day, as documented. Max Age (24 h at most)
 * bounds it: past Max Age / 3 a Poll Times' three polls outlast every message they could show.
 */

const MINUTE = 60_000;
const pair = useCatchUpBesideTrigger();

/** A lost message, its run emitted by a poll with `pollTimes` and still going. */
async function heldWith(pollTimes: INodeParameters): Promise<N8nPollHost> {
	const sandbox = pair.sandbox();
	const trigger = await pair.startTrigger({ ...quickGrouping, catchUpHours: 24 });
	const poll = await catchUpBeside(sandbox, trigger, undefined, undefined, { pollTimes });
	await poll.activate();
	sandbox.webhooks.faults.loseNext(1);
	sandbox.clock.advance(MINUTE);
	sandbox.inject.injectMessage({
		from: { phone: '4917100039104', name: 'Person' },
		text: 'still open?',
	});
	poll.holdRuns = true;
	sandbox.clock.advance(10 * MINUTE);
	expect(await poll.poll()).toBe(1);
	return poll;
}

/** What a test run shows `minutes` after that poll. */
async function shownAfter(poll: N8nPollHost, minutes: number) {
	pair.sandbox().clock.advance(minutes * MINUTE);
	return (await poll.testRun()).map((item) => item.json.text);
}

describe('review 12c: Poll Times as n8n holds them (holds)', () => {
	it('every 2 hours (everyX, hours): hidden for 5 h 59 min, shown past 6 h', async () => {
		const poll = await heldWith({ item: [{ mode: 'everyX', value: 2, unit: 'hours' }] });
		expect(await shownAfter(poll, 359)).toEqual([]);
		expect(await shownAfter(poll, 2)).toEqual(['still open?']);
	});

	it('every hour and every day at 9 (two items): the hour decides', async () => {
		const poll = await heldWith({
			item: [
				{ mode: 'everyDay', hour: 9, minute: 0 },
				{ mode: 'everyHour', minute: 5 },
			],
		});
		expect(await shownAfter(poll, 179)).toEqual([]);
		expect(await shownAfter(poll, 2)).toEqual(['still open?']);
	});

	it('a custom cron expression counts as a poll a day: hidden for as long as Max Age allows', async () => {
		const poll = await heldWith({ item: [{ mode: 'custom', cronExpression: '0 0 * * 1' }] });
		expect(await shownAfter(poll, 23 * 60)).toEqual([]);
	});

	it("n8n's default (a new node: every minute) as the loader adds it", async () => {
		const poll = await heldWith({ item: [{ mode: 'everyMinute' }] });
		expect(await shownAfter(poll, 2)).toEqual([]);
		expect(await shownAfter(poll, 2)).toEqual(['still open?']);
	});
});
