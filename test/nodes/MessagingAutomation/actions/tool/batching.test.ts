import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { sendInOrder } from '../../../../../nodes/MessagingAutomation/actions/tool/batching';
import { deriveIdempotencyKey } from '../../../../../nodes/shared/client/idempotency';
import { DEMO } from '../../../../sandbox';
import { fieldsParameters, useHarness } from '../../harness';

/*
 * One element per input item, sent in the fewest calls the per-call limits allow (500 campaign
 * recipients, 100 filter numbers, 50 group participants), without duplicates, with one output
 * item per batch paired with the items it carried.
 */

const h = useHarness();

async function newCampaign(): Promise<string> {
	const created = await h.run({
		parameters: fieldsParameters('create_campaign', {
			name: 'Big list',
			templateName: 'order_update',
			templateLanguage: 'en',
			maxMessages: 5000,
		}),
	});
	return String(created.json[0].campaign_id);
}

const recipientsBatch = (campaignId: string): INodeParameters => ({
	resource: 'campaign',
	operation: 'addRecipients',
	inputMode: 'batch',
	campaignId,
	batchPhoneNumber: '={{ $json.phone }}',
	batchParameters: '={{ [$json.name, $json.order, "shipped"] }}',
	batchConsentSource: 'Checkout opt-in box',
	batchConsentAt: '={{ $json.optedInAt }}',
});

const recipient = (index: number) => ({
	phone: `4917${String(index).padStart(8, '0')}`,
	name: `Customer ${index}`,
	order: String(1000 + index),
	optedInAt: '2026-09-30T10:00:00Z',
});

describe('batched recipients', () => {
	it('1,234 recipients take 3 calls (500 + 500 + 234), one output item per batch', async () => {
		const campaignId = await newCampaign();
		const items = Array.from({ length: 1234 }, (_, index) => recipient(index));
		const result = await h.run({ parameters: recipientsBatch(campaignId) }, items);
		expect(result.error).toBeUndefined();
		expect(
			result.calls.map((call) => (call.input as { recipients: unknown[] }).recipients.length),
		).toEqual([500, 500, 234]);
		expect(result.json.map((json) => [json.added, json.recipient_count])).toEqual([
			[500, 500],
			[500, 1000],
			[234, 1234],
		]);
		expect(result.json[2].batch).toEqual({
			index: 2,
			size: 234,
			items: 234,
			duplicates_removed: 0,
		});
		expect(result.output[0].pairedItem).toHaveLength(500);
		expect(result.output[2].pairedItem).toContainEqual({ item: 1233 });
		const first = (result.calls[0].input as { recipients: Array<Record<string, unknown>> })
			.recipients[0];
		expect(first).toEqual({
			phoneNumber: '491700000000',
			parameters: ['Customer 0', '1000', 'shipped'],
			consentSource: 'Checkout opt-in box',
			consentAt: '2026-09-30T10:00:00Z',
		});
	});

	it('with plain field references, reads the elements again for each call: the calls carry what was checked', async () => {
		const campaignId = await newCampaign();
		const items = Array.from({ length: 501 }, (_, index) => ({
			...recipient(index),
			values: [`Customer ${index}`],
		}));
		const parameters = {
			...recipientsBatch(campaignId),
			batchParameters: '={{ $json.values }}',
			batchConsentSource: '={{ $json.name }}',
		};
		const result = await h.run({ parameters }, items);
		expect(result.error).toBeUndefined();
		const sent = result.calls.flatMap(
			(call) => (call.input as { recipients: unknown[] }).recipients,
		);
		expect(sent).toEqual(
			items.map((item) => ({
				phoneNumber: item.phone,
				parameters: item.values,
				consentSource: item.name,
				consentAt: item.optedInAt,
			})),
		);
	});

	it('drops repeated numbers before sending; a repeated item is paired with the batch that carried its number', async () => {
		const campaignId = await newCampaign();
		const items = [recipient(1), recipient(2), recipient(1), recipient(3), recipient(2)];
		const result = await h.run({ parameters: recipientsBatch(campaignId) }, items);
		expect(result.calls).toHaveLength(1);
		expect((result.calls[0].input as { recipients: unknown[] }).recipients).toHaveLength(3);
		expect(result.json[0].batch).toMatchObject({ size: 3, items: 5, duplicates_removed: 2 });
		expect(result.output[0].pairedItem).toEqual([0, 1, 2, 3, 4].map((item) => ({ item })));
	});

	it('items for different campaigns go in separate calls', async () => {
		const [a, b] = [await newCampaign(), await newCampaign()];
		const items = [0, 1, 2, 3].map((index) => ({
			...recipient(index),
			campaign: index % 2 === 0 ? a : b,
		}));
		const result = await h.run(
			{ parameters: { ...recipientsBatch('={{ $json.campaign }}') } },
			items,
		);
		expect(result.calls.map((call) => (call.input as { campaignId: string }).campaignId)).toEqual([
			a,
			b,
		]);
	});

	it('checks every item before the first call, naming the item in the path', async () => {
		const campaignId = await newCampaign();
		const items = [
			recipient(0),
			recipient(1),
			recipient(2),
			{ ...recipient(3), phone: '0049 170' },
		];
		const result = await h.run({ parameters: recipientsBatch(campaignId) }, items);
		expect(result.error?.message).toBe(
			'Recipients[3] › Phone Number must be 7-15 digits, first digit not 0. Nothing was sent.',
		);
		expect(result.calls).toEqual([]);
	});

	it('checks the batch key, the one part of a call its items could not, before sending it', async () => {
		const campaignId = await newCampaign();
		const parameters = {
			...recipientsBatch(campaignId),
			options: { idempotencyKey: 'no spaces allowed' },
		};
		const result = await h.run({ parameters }, [recipient(0), recipient(1)]);
		expect(result.error?.message).toBe(
			"Idempotency Key must be 8-128 characters from letters, digits, '.', '_', ':' and '-'. Nothing was sent.",
		);
		expect(result.calls).toEqual([]);
	});

	it('batch keys derive from the trigger event and the batch index', async () => {
		const campaignId = await newCampaign();
		const items = Array.from({ length: 501 }, (_, index) => ({
			...recipient(index),
			event_id: 'evt_import_7',
		}));
		const result = await h.run(
			{ id: 'node-import', parameters: recipientsBatch(campaignId) },
			items,
		);
		expect(result.calls.map((call) => call.idempotencyKey)).toEqual([
			deriveIdempotencyKey('evt_import_7', 'node-import', 0),
			deriveIdempotencyKey('evt_import_7', 'node-import', 1),
		]);
	});
});

describe('batched numbers and participants', () => {
	it('250 filter numbers take 3 calls of at most 100', async () => {
		const parameters: INodeParameters = {
			resource: 'numberFilter',
			operation: 'add',
			inputMode: 'batch',
			batchValue: '={{ $json.phone }}',
		};
		const items = Array.from({ length: 250 }, (_, index) => ({
			phone: `+49 30 ${String(index).padStart(7, '0')}`,
		}));
		const result = await h.run({ parameters }, items);
		expect(result.error).toBeUndefined();
		expect(
			result.calls.map((call) => (call.input as { phoneNumbers: unknown[] }).phoneNumbers.length),
		).toEqual([100, 100, 50]);
	});

	it('120 group participants take 3 calls of at most 50', async () => {
		const parameters: INodeParameters = {
			resource: 'group',
			operation: 'addParticipants',
			inputMode: 'batch',
			jid: DEMO.adminGroup.jid,
			batchValue: '={{ $json.participant }}',
		};
		const items = Array.from({ length: 120 }, (_, index) => ({
			participant: `4475${String(index).padStart(8, '0')}`,
		}));
		const result = await h.run({ parameters }, items);
		expect(result.error).toBeUndefined();
		expect(
			result.calls.map((call) => (call.input as { participants: unknown[] }).participants.length),
		).toEqual([50, 50, 20]);
		expect(result.json).toHaveLength(3);
	});
});

describe('sendInOrder', () => {
	const batches = Array.from({ length: 10 }, (_, index) => ({
		shared: {},
		items: [index],
		duplicateItems: [],
	}));

	it('answers in batch order whatever order the calls finish in, never more than four in flight', async () => {
		let inFlight = 0;
		let most = 0;
		const answers = await sendInOrder(batches, async (_, index) => {
			inFlight++;
			most = Math.max(most, inFlight);
			// Later batches finish first.
			for (let tick = 0; tick < 10 - index; tick++) await Promise.resolve();
			inFlight--;
			return index;
		});
		expect(answers).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
		expect(most).toBe(4);
	});

	it('starts no batch after one fails the run, and throws the earliest failure', async () => {
		const started: number[] = [];
		const failure = await sendInOrder(batches, async (_, index) => {
			started.push(index);
			await Promise.resolve();
			if (index === 2 || index === 3) throw new Error(`batch ${index} failed`);
			return index;
		}).catch((error: Error) => error.message);
		expect(failure).toBe('batch 2 failed');
		expect(started).toEqual([0, 1, 2, 3, 4, 5]);
	});
});
