import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every TypeScript file below `directory`, for tests that read the package's own source. */
export function sourceFiles(directory: string): string[] {
	return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
		const path = join(directory, entry.name);
		if (entry.isDirectory()) return sourceFiles(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}
