import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { beforeAll, describe, expect, it } from 'vitest';

import { DEMO } from '../../../../sandbox';
import { startChaosProxy, type Fault } from '../../../../support/chaosProxy';
import { startKeyTrap } from '../../../../support/keyTrap';
import { fieldsParameters, useHarness } from '../../harness';

/* get_attachment_link with Download File: the file lands in a binary property while the link is valid. */

const h = useHarness({}, { resetEach: false });
let storedId = '';
beforeAll(async () => {
	const injected = h.sandbox.inject.injectMessage({
		from: { phone: DEMO.alice.phone, name: 'Alice' },
		text: 'Photo of the parcel',
		attachment: {
			fileName: 'parcel.jpg',
			mimeType: 'image/jpeg',
			content: 'JPEG bytes of the parcel',
		},
	});
	storedId = String(injected.message.stored_message_id);
});

describe('attachments', () => {
	it('downloads the file into the chosen binary property', async () => {
		const parameters = fieldsParameters(
			'get_attachment_link',
			{ message_id: storedId },
			{ download: true, downloadPropertyName: 'photo' },
		);
		const result = await h.run({ parameters });
		expect(result.error).toBeUndefined();
		const [item] = result.output;
		expect(item.json).toMatchObject({ file_name: 'parcel.jpg', mime_type: 'image/jpeg' });
		expect(item.binary?.photo).toMatchObject({ fileName: 'parcel.jpg', mimeType: 'image/jpeg' });
		expect(Buffer.from(String(item.binary?.photo.data), 'base64').toString()).toBe(
			'JPEG bytes of the parcel',
		);
	});

	it('returns only the link when Download File is off', async () => {
		const result = await h.run({
			parameters: fieldsParameters('get_attachment_link', { message_id: storedId }),
		});
		expect(result.output[0].binary).toBeUndefined();
		expect(String(result.json[0].url)).toMatch(/\/files\//);
	});
});

describe('attachment downloads behind a misbehaving address', () => {
	/** Runs Download File with the service behind a proxy that deals `fileFault` to the download link. */
	async function downloadThrough(fileFault: Fault, options: IDataObject = {}) {
		const trap = await startKeyTrap([h.sandbox.keys.owner]);
		const proxy = await startChaosProxy({
			target: h.sandbox.url,
			redirectTo: trap.url,
			choose: ({ path }) => (path.startsWith('/files/') ? fileFault : 'pass'),
		});
		h.engine.credentialsHelper.set('messagingAutomationApi', {
			apiKey: h.sandbox.keys.owner,
			baseUrl: proxy.url,
			authScheme: 'bearer',
		});
		try {
			const parameters = fieldsParameters(
				'get_attachment_link',
				{ message_id: storedId },
				{ download: true, options: options as INodeParameters },
			);
			const result = await h.run({ parameters, continueOnFail: true });
			return {
				result,
				trap: { requests: trap.requests, keyed: trap.keyed },
				dealt: proxy.counts[fileFault],
			};
		} finally {
			h.usePersona('owner');
			await proxy.stop();
			await trap.stop();
		}
	}

	it('downloads from the service origin behind the proxy', async () => {
		const { result, dealt } = await downloadThrough('pass');
		expect(Buffer.from(String(result.output[0].binary?.data.data), 'base64').toString()).toBe(
			'JPEG bytes of the parcel',
		);
		expect(dealt).toBeGreaterThan(0);
	});

	it('refuses a redirect of the link to another local port: the key never leaves', async () => {
		for (const fault of ['redirect302', 'redirect307'] as const) {
			const { result, trap, dealt } = await downloadThrough(fault);
			expect(dealt).toBe(1);
			expect(result.output[0].binary).toBeUndefined();
			expect((result.json[0].error as { message?: string }).message).toMatch(
				/The attachment was not downloaded: a redirect was refused: .*loopback/,
			);
			expect(trap).toEqual({ requests: 0, keyed: 0 });
		}
	});

	it('gives up on a stalled download at the node time-out', async () => {
		const { result } = await downloadThrough('stall', { timeoutSeconds: 0.5 });
		expect((result.json[0].error as { message?: string }).message).toMatch(
			/did not complete within 0.5 s/,
		);
	});
});
