// Types of build-info.mjs, for vitest.config.ts and the tests (the project's TypeScript does not read .mjs files).
export function buildDefines(root: string, env?: NodeJS.ProcessEnv, now?: Date): Record<string, string>;
export function gitCommit(root: string, env?: NodeJS.ProcessEnv): string | null;
export function buildDate(env?: NodeJS.ProcessEnv, now?: Date): string;
