import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
/** The README with its line breaks as spaces: a quote may wrap, the printed line does not. */
const flat = readme.replace(/\s+/g, ' ');
const section = (from: string, to: string) =>
	readme.slice(readme.indexOf(from), readme.indexOf(to));

describe('the README quotes what npm run dev and npm run try print, word for word', () => {
	it("quotes each command's line, with … for what differs from run to run", async () => {
		const { FIRST, LINES } = await import('../dev/tryLines.mjs');
		const quoted = [
			LINES.replyBot({ took: '0.6 s', reply: '"Thanks Alice, …"' }),
			LINES.aiBot({ within: '0.1 s', after: '6.2 s', reply: '"…"' }),
			LINES.botOff({}),
			LINES.lostEvent({ text: 'is anyone there?', id: '…' }),
			FIRST.paused({ since: '…', how: 'the account sent /bot off' }),
			LINES.attachment({ took: '1.2 s', file: '…/<message id>-invoice.txt' }),
			LINES.campaign({
				run: 7,
				name: 'Order updates (example)',
				id: '…',
				state: 'draft',
				recipients: 3,
			}),
			LINES.refund({ run: 12, question: '"Refund 25 EUR for order 1042? …"' }),
			LINES.approved({
				way: 'opened the Approve link (HTTP 200)',
				run: 12,
				told: '"Your refund of 25 EUR for order 1042 is approved."',
			}),
			FIRST.noQuestion(),
			LINES.undelivered({
				id: 'wamid.…',
				note: '"A Business message to 4915700000000 failed (wamid.…). The message was not delivered: Message undeliverable (code 131026)."',
			}),
		];
		for (const line of quoted) expect(flat.includes(`\`${line}\``), line).toBe(true);
		// A second question's run, still waiting, named at the end.
		const waiting = LINES.approved({ way: '', run: 12, told: '', waiting: ['11'] });
		expect(flat).toContain(`\`${waiting.slice(waiting.indexOf('; run 11'))}\``);
	});

	it('shows the start of the banner as printed, the examples in the order npm run dev lists them', async () => {
		const { CREDENTIAL_NAME, DEFAULT_ADDRESSES, devBanner, tryItCommands } = await import(
			'../dev/tryIt.mjs'
		);
		const { exampleWorkflows, listens, OWNER } = await import('../dev/stack.mjs');
		const { n8nUrl, sandboxUrl } = DEFAULT_ADDRESSES;
		const banner = devBanner({
			n8nUrl,
			login: OWNER,
			sandbox: { url: sandboxUrl, apiKey: '…' },
			credential: CREDENTIAL_NAME,
			workflows: Object.values(exampleWorkflows('/files')).map((workflow) => ({
				name: workflow.name,
				active: listens(workflow),
				link: `${n8nUrl}/workflow/…`,
			})),
			run: tryItCommands(DEFAULT_ADDRESSES),
		});
		const sample = /```text\n([\s\S]*?)```/.exec(
			section('### What you will see', '### Try each'),
		)?.[1];
		expect(banner.trimStart().startsWith(sample ?? '(no sample)')).toBe(true);
		// The steps take the examples in the order their commands are printed.
		const printed = [...banner.matchAll(/npm run -s try -- ([\w-]+)/g)].map((match) => match[1]);
		const steps = section('### Try each example', '### `npm test`');
		const firstMention = (command: string) => steps.indexOf(`npm run -s try -- ${command}\``);
		const mentioned = printed.filter((command) => firstMention(command) >= 0);
		expect(mentioned).toEqual(printed);
		expect([...mentioned].sort((a, b) => firstMention(a) - firstMention(b))).toEqual(printed);
	});

	it('says what Ctrl-C stops as the banner and the shutdown line do', async () => {
		const { STOPS } = await import('../dev/tryIt.mjs');
		const dev = readFileSync(join(root, 'test', 'dev', 'dev.mjs'), 'utf8');
		expect(dev).toContain('log(`${reason}: stopping ${STOPS}`)');
		expect(flat).toContain(`Ctrl-C stops ${STOPS} (\`[dev] SIGINT: stopping ${STOPS}\`)`);
	});
});
