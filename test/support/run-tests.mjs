#!/usr/bin/env node
// `npm test`: the whole vitest suite, closed by one summary line that people and CI can read.
import { runVitest } from './vitestRun.mjs';

const { passed, failed, skipped } = await runVitest('test/vitest.config.ts', process.argv.slice(2));
const ok = failed === 0 && passed > 0;
console.log(`\nTests ${ok ? 'PASSED' : 'FAILED'}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(ok ? 0 : 1);
