#!/usr/bin/env node
// `npm test` (the suite), or with --soak `npm run test:soak` (the long acceptance runs), each closed
// by one summary line that people and CI can read.
import { runVitest } from './vitestRun.mjs';

const soak = process.argv[2] === '--soak';
const config = soak ? 'test/vitest.soak.config.mts' : 'test/vitest.config.mts';
const { passed, failed, skipped } = await runVitest(config, process.argv.slice(soak ? 3 : 2));
const ok = failed === 0 && passed > 0;
console.log(`\nTests ${ok ? 'PASSED' : 'FAILED'}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(ok ? 0 : 1);
