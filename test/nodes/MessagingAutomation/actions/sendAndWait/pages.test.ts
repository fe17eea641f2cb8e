import { describe, expect, it } from 'vitest';

import {
	browserOnlyPage,
	formAnswers,
	formPage,
	recordedPage,
} from '../../../../../nodes/MessagingAutomation/actions/sendAndWait/pages';
import { isPreviewRequest } from '../../../../../nodes/MessagingAutomation/actions/sendAndWait/previewBots';

describe('link previews are not answers', () => {
	it.each([
		['WhatsApp/2.23.20.0 A', true],
		['facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)', true],
		['TelegramBot (like TwitterBot)', true],
		['Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', true],
		['Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)', true],
		['Mozilla/5.0 (Windows NT 10.0; Win64; x64) SkypeUriPreview Preview/0.5', true],
		[
			'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0',
			true,
		],
		['curl/8.5.0', true],
		['', true],
		[
			'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
			false,
		],
		[
			'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
			false,
		],
		['Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', false],
	])('%s → preview %s', (agent, preview) => {
		expect(isPreviewRequest(agent)).toBe(preview);
	});
});

describe('answer pages', () => {
	it('escape everything they show and post back to their own address', () => {
		const html = formPage({
			title: '<script>alert(1)</script>',
			description: 'Refund "order" & more',
			buttonLabel: 'Send',
			fields: [{ label: 'Amount <b>', type: 'number', options: [], required: true }],
		});
		expect(html).not.toContain('<script>alert');
		expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
		expect(html).toContain('<form method="post" action="" enctype="multipart/form-data">');
		expect(html).toContain('<input id="field-0" name="field-0" type="number" required>');
		expect(recordedPage()).toContain('Got it, thanks');
	});

	it('tell a request that may not answer (a preview, curl) to open the link in a browser, and why', () => {
		const html = browserOnlyPage();
		expect(html).toContain('<title>Open this link in a browser to answer</title>');
		expect(html).toContain('Link previews and other programs never count as an answer');
		expect(html).toContain('Nothing was recorded.');
	});

	it('read answers by field label, numbers as numbers, whether n8n nests them under data or not', () => {
		const fields = [
			{ label: 'Name', type: 'text' as const, options: [], required: true },
			{ label: 'Amount', type: 'number' as const, options: [], required: false },
		];
		expect(formAnswers(fields, { 'field-0': 'Ann', 'field-1': '42' })).toEqual({
			Name: 'Ann',
			Amount: 42,
		});
		expect(formAnswers(fields, { data: { 'field-0': 'Ann' } })).toEqual({
			Name: 'Ann',
			Amount: '',
		});
	});
});
