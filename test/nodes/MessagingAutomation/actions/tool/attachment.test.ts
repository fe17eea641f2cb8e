import { beforeAll, describe, expect, it } from 'vitest';

import { DEMO } from '../../../../sandbox';
import { fieldsParameters, useHarness } from '../../harness';

/* get_attachment_link with Download File: the file lands in a binary property while the link is valid. */

const h = useHarness({}, { resetEach: false });
let storedId = '';
beforeAll(async () => {
	const injected = h.sandbox.inject.injectMessage({
		from: { phone: DEMO.alice.phone, name: 'Alice' },
		text: 'Photo of the parcel',
		attachment: { fileName: 'parcel.jpg', mimeType: 'image/jpeg', content: 'JPEG bytes of the parcel' },
	});
	storedId = String(injected.message.stored_message_id);
});

describe('attachments', () => {
	it('downloads the file into the chosen binary property', async () => {
		const parameters = fieldsParameters('get_attachment_link', { message_id: storedId }, { download: true, downloadPropertyName: 'photo' });
		const result = await h.run({ parameters });
		expect(result.error).toBeUndefined();
		const [item] = result.output;
		expect(item.json).toMatchObject({ file_name: 'parcel.jpg', mime_type: 'image/jpeg' });
		expect(item.binary?.photo).toMatchObject({ fileName: 'parcel.jpg', mimeType: 'image/jpeg' });
		expect(Buffer.from(String(item.binary?.photo.data), 'base64').toString()).toBe('JPEG bytes of the parcel');
	});

	it('returns only the link when Download File is off', async () => {
		const result = await h.run({ parameters: fieldsParameters('get_attachment_link', { message_id: storedId }) });
		expect(result.output[0].binary).toBeUndefined();
		expect(String(result.json[0].url)).toMatch(/\/files\//);
	});
});
