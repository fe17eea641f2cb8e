import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// n8n-core writes its instance config below the user folder on first import: keep it out of $HOME.
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-test-'));
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
