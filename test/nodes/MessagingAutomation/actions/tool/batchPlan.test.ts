import { describe, expect, it } from 'vitest';

import { BatchPlan } from '../../../../../nodes/MessagingAutomation/actions/tool/batchPlan';

const campaign = (id: string) => ({ campaignId: id });
const spec = { field: 'recipients', max: 2, dedupeBy: 'phoneNumber' };

describe('BatchPlan', () => {
	it('cuts at the call limit and keeps item numbers, not elements, unless asked to', () => {
		const plan = new BatchPlan(spec, false);
		const shared = campaign('a');
		for (const [index, phone] of ['1', '2', '3'].entries())
			plan.add(index, shared, { phoneNumber: phone });
		expect(plan.batches()).toEqual([
			{ shared, items: [0, 1], duplicateItems: [] },
			{ shared, items: [2], duplicateItems: [] },
		]);

		const keeping = new BatchPlan(spec, true);
		keeping.add(0, shared, { phoneNumber: '1' });
		expect(keeping.batches()[0].elements).toEqual([{ phoneNumber: '1' }]);
	});

	it('pairs a repeated element with the batch that carries it, also across the cut', () => {
		const plan = new BatchPlan(spec, false);
		const shared = campaign('a');
		for (const [index, phone] of ['1', '2', '3', ' 1 ', '3'].entries())
			plan.add(index, shared, { phoneNumber: phone });
		expect(plan.batches().map((batch) => [batch.items, batch.duplicateItems])).toEqual([
			[[0, 1], [3]],
			[[2], [4]],
		]);
	});

	it('groups items by equal shared fields, whether or not they are the same object', () => {
		const plan = new BatchPlan({ field: 'phoneNumbers', max: 100 }, false);
		plan.add(0, campaign('a'), '1');
		plan.add(1, campaign('b'), '1');
		plan.add(2, campaign('a'), '1');
		plan.add(3, campaign('a'), '2');
		expect(
			plan.batches().map((batch) => [batch.shared, batch.items, batch.duplicateItems]),
		).toEqual([
			[campaign('a'), [0, 3], [2]],
			[campaign('b'), [1], []],
		]);
	});
});
