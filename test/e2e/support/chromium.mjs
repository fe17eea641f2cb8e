// Which Chromium the editor tests drive: plain ESM so test/e2e/run.mjs (plain Node) can say up front
// whether the browser tests will run. Debian's `chromium` package installs /usr/bin/chromium.
import { existsSync } from 'node:fs';

const CANDIDATES = [
	'/usr/bin/chromium',
	'/usr/bin/chromium-browser',
	'/usr/bin/google-chrome',
	'/usr/bin/google-chrome-stable',
];

export const NO_BROWSER_REASON =
	'no Chromium found: apt-get install chromium (or set E2E_CHROMIUM to a Chromium or Chrome binary)';

/** $E2E_CHROMIUM when set (and present), else the first browser found where apt installs one. */
export function findChromium() {
	const fromEnv = process.env.E2E_CHROMIUM;
	if (fromEnv) return existsSync(fromEnv) ? fromEnv : undefined;
	return CANDIDATES.find((path) => existsSync(path));
}
