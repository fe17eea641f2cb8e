import { describe, expect, it } from 'vitest';

import { MessagingAutomationTrigger } from '../../../nodes/MessagingAutomationTrigger/MessagingAutomationTrigger.node';
import { WEBHOOK_EVENT_TYPES } from '../../../nodes/shared/client';

describe('trigger description', () => {
	const { description } = new MessagingAutomationTrigger();

	it('offers exactly the event types the endpoint API accepts', () => {
		const events = description.properties.find((property) => property.name === 'events');
		const values = (events?.options ?? []).map((option) => (option as { value: string }).value);
		expect(values.sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
	});

	it('declares one POST webhook answered on receipt, and the API credential', () => {
		expect(description.webhooks).toEqual([
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				responseData: '',
				path: 'webhook',
			},
		]);
		expect(description.credentials).toEqual([{ name: 'messagingAutomationApi', required: true }]);
		expect(description.inputs).toEqual([]);
	});

	it('says in the download help that Business files cannot be downloaded', () => {
		const options = description.properties.find((property) => property.name === 'options');
		const download = (options?.options ?? []).find(
			(option) => (option as { name: string }).name === 'downloadAttachments',
		);
		expect((download as { description: string }).description).toContain(
			'Business files cannot be downloaded',
		);
	});

	it('names events as the nodes panel reads them ("On message received"), never by API type', () => {
		const events = description.properties.find((property) => property.name === 'events');
		for (const option of (events?.options ?? []) as Array<{ name: string }>)
			expect(option.name).toMatch(/^[A-Z][a-z]+( [A-Z][a-z]+)+$/);
		expect(description.subtitle).toContain('"message.received":"Message Received"');
	});

	it('offers statuses as a list, shown only while status events are chosen', () => {
		const filters = description.properties.find((property) => property.name === 'filters');
		const statuses = (filters?.options ?? []).find(
			(option) => (option as { name: string }).name === 'statusValues',
		);
		expect(statuses).toMatchObject({
			type: 'multiOptions',
			displayOptions: { show: { '/events': ['message.status'] } },
		});
	});
});
