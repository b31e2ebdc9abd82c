// For tests that stop shipctl while the sandbox is still applying its request (the `slow-apply` fault): wait on the
// sandbox's own request log, never on a clock, and read the settle time a run recorded in the ledger.
import type { CliTarget } from "./cli.js";
import { inFlightEntries } from "./ledger.js";
import { afterAll, beforeAll, vi } from "vitest";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "./sandbox.js";

/** The sandbox's bound on applying a request in these tests: the CLI's settle window for it (plus 2 s to send, on loopback). */
export const APPLY_MAX_MS = 1500;
/** How long a slow-apply request is held before it is applied: well inside the bound. */
export const SLOW_MS = 1200;

/** A sandbox with that bound, started before the file's tests and closed after them; call the result to reach it. */
export function inFlightSandbox(): () => TestSandbox {
  let sb: TestSandbox | undefined;
  beforeAll(async () => {
    sb = await startTestSandbox({ applyMaxMs: APPLY_MAX_MS });
  });
  afterAll(() => sb?.close());
  return () => sb!;
}

/** Resolves once the sandbox holds the whole body of the one request matching `filter` and waits to apply it. */
export async function bodyRead(org: OrgTarget, filter: { method: string; path: string }): Promise<void> {
  await vi.waitFor(
    async () => {
      const [sent] = await org.control.requests(filter);
      if (!sent?.note?.startsWith("slow-apply: body read")) throw new Error(`no slow-apply request to ${filter.method} ${filter.path} has its body read yet`);
    },
    { timeout: 20_000, interval: 20 },
  );
}

/** Resolves once the sandbox has applied the slow-apply request matching `filter` (after its client had gone, or not). */
export async function applied(org: OrgTarget, filter: { method: string; path: string }): Promise<void> {
  await vi.waitFor(
    async () => {
      const [sent] = await org.control.requests(filter);
      if (!sent || sent.note?.startsWith("slow-apply: body read")) throw new Error("not applied yet");
    },
    { timeout: 20_000, interval: 20 },
  );
}

/**
 * The latest settle time recorded for an entry in flight in the organization's ledger of `target`'s runs, or of the
 * state folder `target` (join(configDir, "state") for runs given a config folder).
 */
export function settleAtIn(target: CliTarget | string): number {
  const times = inFlightEntries(target)
    .map((e) => (e.state as { settle_at?: string }).settle_at)
    .filter((t): t is string => typeof t === "string")
    .map((t) => Date.parse(t));
  if (times.length === 0) throw new Error(`no entry in flight in ${typeof target === "string" ? target : target.url}`);
  return Math.max(...times);
}

/** Waits until this machine's clock has passed `at` (a settle time, on the same clock that recorded it). */
export async function passed(at: number): Promise<void> {
  const left = at - Date.now();
  if (left >= 0) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
