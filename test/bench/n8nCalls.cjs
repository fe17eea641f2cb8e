/*
 * Counts what n8n does per delivery while it serves bench row 5, for finding where the time goes:
 * BENCH_N8N_ENV='{"NODE_OPTIONS":"--require <absolute path of this file>"}' npm run bench -- --with-n8n --only 5
 * It wraps a few of n8n's own methods (n8n 2.40.7's file layout) as they load: static-data loads and
 * saves, processed-data calls, expression sandboxes taken and expressions evaluated, each by workflow
 * id or by where n8n asked, with the time waited for the promise ones. Written every 5 s and at exit
 * to calls-<pid>.json in n8n's user folder (.cache/bench/n8n). A diagnostic only: nothing runs it.
 */
const Module = require('node:module');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const counts = {};
const add = (key, value = 1) => {
	counts[key] = Math.round(((counts[key] ?? 0) + value) * 10) / 10;
};

/** Where in n8n a sandbox or an evaluation was asked for. */
function askedBy() {
	const stack = new Error().stack ?? '';
	for (const place of ['parseRequestBody', 'getNodeOutputs', 'live-webhooks', 'workflow-execute'])
		if (stack.includes(place)) return place;
	return 'other';
}

/** Counts each call of `proto[name]` under `keyOf(...args)`, and the time its promise took. */
function count(proto, name, keyOf) {
	const original = proto?.[name];
	if (typeof original !== 'function' || original.counted) return;
	proto[name] = function (...args) {
		const key = keyOf(...args);
		add(key);
		const started = performance.now();
		const result = original.apply(this, args);
		if (typeof result?.then === 'function')
			result.then(
				() => add(`${key}: ms waited`, performance.now() - started),
				() => undefined,
			);
		return result;
	};
	proto[name].counted = true;
}

const WRAPS = {
	'n8n/dist/workflows/workflow-static-data.service.js': ({
		WorkflowStaticDataService: { prototype },
	}) => {
		count(prototype, 'saveStaticDataById', (id) => `static data saved, workflow ${id}`);
		count(prototype, 'getStaticDataById', (id) => `static data loaded for a run, workflow ${id}`);
	},
	'n8n/dist/deduplication/deduplication-helper.js': ({ DeduplicationHelper: { prototype } }) => {
		count(
			prototype,
			'checkProcessedAndRecord',
			(keys, _scope, context) =>
				`processed data checked and recorded, workflow ${context.workflow.id}, ${keys.length} keys`,
		);
	},
	'n8n/dist/webhooks/live-webhooks.js': ({ LiveWebhooks: { prototype } }) => {
		count(prototype, 'loadWebhookExecutionData', (id) => `workflow loaded for a request, ${id}`);
	},
	'n8n-workflow/dist/cjs/expression.js': ({ Expression: { prototype } }) => {
		count(prototype, 'acquireIsolate', () => `expression sandbox taken, by ${askedBy()}`);
	},
	'expression-runtime/dist/cjs/evaluator/expression-evaluator.js': ({
		ExpressionEvaluator: { prototype },
	}) => {
		count(prototype, 'evaluate', () => `expression evaluated, by ${askedBy()}`);
	},
};

const load = Module._load;
Module._load = function (request, parent, isMain) {
	const exported = load.apply(this, arguments);
	try {
		const file = Module._resolveFilename(request, parent, isMain);
		const wrap = Object.entries(WRAPS).find(([path]) => file.endsWith(path));
		wrap?.[1](exported);
	} catch {
		// Not a file of n8n's, or one this n8n lays out otherwise: left as it is.
	}
	return exported;
};

const output = join(process.env.N8N_USER_FOLDER ?? '.', `calls-${process.pid}.json`);
const save = () => {
	if (Object.keys(counts).length > 0) writeFileSync(output, JSON.stringify(counts, null, '\t'));
};
setInterval(save, 5000).unref();
process.on('exit', save);
