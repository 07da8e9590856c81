/**
 * How the build's process is started: `npm run build` (package.json's "build" script),
 * bench:build and the tests that run the build as the operator does. One list, so that what
 * is measured and tested is what runs (test/build-command.test.ts holds package.json to it).
 */

/**
 * The V8 flags the build's process runs with: `--single-threaded`, V8's work for each thread
 * done on that thread, none on V8's background threads. The build runs a dozen JavaScript
 * threads on few cores; V8's four background threads marked, scavenged, swept and compiled
 * beside them (~26 s of CPU in a reference cold build's ~112 s), and the same work on each
 * thread's own took ~7 s of CPU less: the cold build ~2-4 s shorter, the monthly one ~0.5 s
 * (BENCHMARKS.md, "Build: V8's work on each thread's own"). V8 flags are process-wide: a
 * worker runs with them, and Node refuses them in a worker's `execArgv` (worker-bundle.ts
 * leaves them out).
 */
export const BUILD_V8_FLAGS: readonly string[] = ['--single-threaded'];

/** `node`'s arguments for the build, from the project's folder: scripts/build.ts from its bundle (scripts/build.mjs). */
export const BUILD_NODE_ARGS: readonly string[] = [...BUILD_V8_FLAGS, 'scripts/build.mjs'];
