// What `npm run try` (test/dev/try.mjs) reads from the sandbox's sends and n8n's executions, as pure
// functions: which question belongs to which run, and the one line or table it prints.

/** The sends that were not there before (`before`: the message ids seen then). */
export function newSends(before, sends) {
	return sends.filter((send) => !before.has(send.message_id));
}

/** The *Approve* link of a Send and Wait question, or undefined. */
export function approveLink(text) {
	return /^Approve: (\S+)$/m.exec(text ?? '')?.[1];
}

/** The execution a resume link resumes: n8n builds them `<base>/webhook-waiting/<execution id>[/<node id>]`. */
export function runOfLink(link) {
	try {
		const segments = new URL(link).pathname.split('/');
		const at = segments.indexOf('webhook-waiting');
		return at >= 0 && /^\w+$/.test(segments[at + 1] ?? '') ? segments[at + 1] : undefined;
	} catch {
		return undefined;
	}
}

/** Questions (sends with an *Approve* link) to `to`, oldest first, each with the run it belongs to. */
export function questionsTo(sends, to) {
	return sends.flatMap((send) => {
		const link = send.to === to ? approveLink(send.text) : undefined;
		const run = link && runOfLink(link);
		return run ? [{ send, link, run }] : [];
	});
}

/** The first line of a message, quoted, for a one-line report. */
export function quote(text) {
	const [first, ...rest] = String(text ?? '').split('\n');
	return `"${first}${rest.some((line) => line.trim()) ? ' …' : ''}"`;
}

/** `0.4 s`, `12 s`, `3 min 5 s`, `2 h 4 min`: how long ago or how long, for people. */
export function duration(ms) {
	// Tenths below 10 s: a reply or a run often takes less than a second, and "0 s" reads as nothing.
	if (ms < 9950) return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
	const seconds = Math.round(ms / 1000);
	if (seconds < 60) return `${seconds} s`;
	const minutes = Math.floor(seconds / 60);
	if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
	return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * The last runs as a table, newest first: id, status, workflow, when it started and how long it
 * took (or has been going). `executions` are n8n's execution summaries; `now` in epoch ms.
 */
export function runsTable(executions, now) {
	if (executions.length === 0) return 'No runs yet.\n';
	const rows = executions.map((execution) => {
		const started = Date.parse(execution.startedAt ?? execution.createdAt ?? '');
		const stopped = Date.parse(execution.stoppedAt ?? '');
		const ended = !['new', 'running', 'waiting'].includes(execution.status);
		const took = ended && !Number.isNaN(stopped) ? duration(stopped - started) : '';
		return [
			String(execution.id),
			execution.status,
			execution.workflowName ?? String(execution.workflowId),
			Number.isNaN(started) ? '' : `${duration(now - started)} ago`,
			took,
		];
	});
	const header = ['run', 'status', 'workflow', 'started', 'took'];
	const widths = header.map((title, column) =>
		Math.max(title.length, ...rows.map((row) => row[column].length)),
	);
	const line = (cells) =>
		cells
			.map((cell, column) => cell.padEnd(widths[column]))
			.join('  ')
			.trimEnd();
	return `${[header, ...rows].map(line).join('\n')}\n`;
}
