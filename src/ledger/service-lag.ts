// How far a service's created_at lags its own `Date` header, measured where a run can (a record it has just created,
// read back once) and kept per service in the config folder for later runs: a rerun settling a lost request widens
// its read-back window by it (listed-finder.ts). A service writing local time as UTC, or answering reads from a
// replica behind, lags by minutes or hours; a faithful one by under a second (created_at has whole seconds).
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { stateDir } from "../config/paths.js";
import { writeFileAtomic } from "../fs/atomic-file.js";

interface LagRecord {
  created_at_lag_ms: number;
  measured_at: string;
}

function storePath(env: NodeJS.ProcessEnv): string {
  return join(stateDir(env), "service-clock.json");
}

async function readStore(env: NodeJS.ProcessEnv): Promise<Record<string, LagRecord>> {
  try {
    const data = JSON.parse(await readFile(storePath(env), "utf8")) as unknown;
    return typeof data === "object" && data !== null && !Array.isArray(data) ? (data as Record<string, LagRecord>) : {};
  } catch {
    // Never measured, or unreadable: the lag counts as unknown.
    return {};
  }
}

/** The lag last measured on this service, or undefined when it never was. */
export async function recordedLag(env: NodeJS.ProcessEnv, baseUrl: string): Promise<number | undefined> {
  const record = (await readStore(env))[baseUrl];
  return typeof record?.created_at_lag_ms === "number" && record.created_at_lag_ms >= 0 ? record.created_at_lag_ms : undefined;
}

/** Keeps a measured lag (only when it changed by a second or more: most runs measure the same). */
export async function keepLag(env: NodeJS.ProcessEnv, baseUrl: string, lagMs: number, now: Date): Promise<void> {
  const store = await readStore(env);
  const before = store[baseUrl]?.created_at_lag_ms;
  if (typeof before === "number" && Math.abs(before - lagMs) < 1000) return;
  store[baseUrl] = { created_at_lag_ms: Math.max(0, Math.round(lagMs)), measured_at: now.toISOString() };
  await mkdir(stateDir(env), { recursive: true, mode: 0o700 });
  await writeFileAtomic(storePath(env), `${JSON.stringify(store, null, 2)}\n`);
}

/** The lag shown by a record created at `createdAt` (service text) whose creation was answered at `answeredAt` (service ms). */
export function lagOf(createdAt: number, answeredAt: number): number {
  // created_at is cut to whole seconds: up to a second behind the answer is no lag at all.
  return Math.max(0, answeredAt - createdAt - 1000);
}
