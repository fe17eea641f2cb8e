const path = require('node:path');
const { task, src, dest } = require('gulp');

// tsc emits only JavaScript; n8n also needs the icons and codex files beside each node.
task('build:assets', () =>
	src(['nodes/**/*.{png,svg}', 'nodes/**/*.node.json', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest(path.resolve('dist'))),
);
