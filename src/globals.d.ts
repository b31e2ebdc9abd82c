// Replaced at build time by scripts/build.mjs (esbuild `define`); vitest defines it in vitest.config.ts.
declare const __SHIPCTL_VERSION__: string;
