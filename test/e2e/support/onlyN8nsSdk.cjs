// Preloaded into an n8n an e2e test starts (NODE_OPTIONS=--require): `@n8n/ai-node-sdk` resolves
// only to the copy n8n itself ships, as in a real install. The test installs of n8n live inside
// the project, and n8n puts every node_modules folder above its own on NODE_PATH: without this, a
// package requiring the SDK would find the project's development copy, even on an n8n without one.
const Module = require('node:module');
const { realpathSync } = require('node:fs');
const { sep } = require('node:path');

const n8nModules = realpathSync(process.env.E2E_N8N_MODULES);
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
	const resolved = resolve.call(this, request, ...rest);
	if (request === '@n8n/ai-node-sdk' && !resolved.startsWith(n8nModules + sep)) {
		const error = new Error(`Cannot find module '${request}' in n8n's own modules`);
		error.code = 'MODULE_NOT_FOUND';
		throw error;
	}
	return resolved;
};
