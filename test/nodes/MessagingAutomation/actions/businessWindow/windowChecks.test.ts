import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { WindowChecks } from '../../../../../nodes/MessagingAutomation/actions/businessWindow/windowChecks';
import type { MessagingClient } from '../../../../../nodes/shared/client/client';

/* One read per recipient per run, while what it read still holds. */

const NOW = Date.parse('2026-11-27T12:00:00.000Z');
const HOUR = 3_600_000;

function counted(answer: IDataObject) {
	const asked: unknown[] = [];
	const client = {
		callTool: async (_name: string, input: unknown) => {
			asked.push(input);
			return { data: answer };
		},
	} as unknown as MessagingClient;
	return { client, asked };
}

describe('WindowChecks', () => {
	it('reads each recipient once, whether named by phone number or conversation', async () => {
		const { client, asked } = counted({ needs_approved_template: true });
		const checks = new WindowChecks(client, () => NOW);
		await checks.state({ channel: 'business', phoneNumber: '5511987654321' });
		await checks.state({ channel: 'business', conversationId: '5511987654321' });
		await checks.state({ channel: 'business', phoneNumber: '919876543210' });
		expect(asked).toHaveLength(2);
	});

	it('reads again when a window it read as open is about to close during the run', async () => {
		const { client, asked } = counted({
			customer_service_window_open: true,
			window_expires_at: new Date(NOW + HOUR).toISOString(),
		});
		let now = NOW;
		const checks = new WindowChecks(client, () => now);
		const recipient = { channel: 'business', phoneNumber: '5511987654321' };
		await checks.state(recipient);
		now = NOW + 30 * 60_000;
		await checks.state(recipient);
		expect(asked).toHaveLength(1);
		now = NOW + 50 * 60_000;
		await checks.state(recipient);
		expect(asked).toHaveLength(2);
	});
});
