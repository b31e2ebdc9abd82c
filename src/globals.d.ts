// Replaced at build time by scripts/build.mjs (esbuild `define`, values from scripts/build-info.mjs); vitest defines
// the same in vitest.config.ts.
declare const __SHIPCTL_VERSION__: string;
/** The short commit built (`-dirty` when tracked files were changed), or null when not built in a git checkout. */
declare const __SHIPCTL_COMMIT__: string | null;
/** When it was built, ISO 8601 in UTC to the second (SOURCE_DATE_EPOCH when set). */
declare const __SHIPCTL_BUILD_DATE__: string;
