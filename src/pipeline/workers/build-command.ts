/**
 * How the build's process is started (`npm run build`, bench:build, the tests): one list, so
 * that what is measured and tested is what runs (test/build-command.test.ts).
 */

/**
 * The build's V8 flags: `--single-threaded` does V8's GC and compile work on each JavaScript
 * thread rather than on background threads that compete with the build's many threads for few
 * cores. Process-wide; Node refuses them in a worker's `execArgv`.
 */
export const BUILD_V8_FLAGS: readonly string[] = ['--single-threaded'];

/** `node`'s arguments for the build: scripts/build.ts from its bundle (scripts/build.mjs). */
export const BUILD_NODE_ARGS: readonly string[] = [...BUILD_V8_FLAGS, 'scripts/build.mjs'];
