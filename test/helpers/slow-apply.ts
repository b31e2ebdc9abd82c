// For tests that stop shipctl while the sandbox is still applying its request (the `hold` fault, which applies it only
// when the test releases it, or `slow-apply`, after a delay): wait on the sandbox's own request log or on what the CLI
// prints, never on a clock, and read the settle time a run recorded in the ledger.
import type { ChildProcess } from "node:child_process";
import type { CliTarget } from "./cli.js";
import { inFlightEntries } from "./ledger.js";
import { afterAll, beforeAll, vi } from "vitest";
import type { ShipmentShape } from "../../src/sandbox/defaults.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "./sandbox.js";

/** The sandbox's bound on applying a request in these tests: the CLI's settle window for it (plus 2 s to send, on loopback). */
export const APPLY_MAX_MS = 1500;
/** How long a slow-apply request is held before it is applied: well inside the bound. */
export const SLOW_MS = 1200;

/**
 * The bound for tests that hold a request until they release it: far beyond any step of a test, so a rerun made while
 * the request is held is within its settle time however slow the machine, and the sandbox never breaks the bound it
 * declares. Such a test never waits for the settle time: a rerun settles by finding the request applied.
 */
export const HOLD_APPLY_MAX_MS = 120_000;

/**
 * A sandbox with a bound (APPLY_MAX_MS unless given), started before the tests of the file (or of the describe block
 * it is called in) and closed after them; call the result to reach it. `shipmentShape`: how it answers stored
 * shipments' addresses.
 */
export function inFlightSandbox(options: { applyMaxMs?: number; shipmentShape?: ShipmentShape } = {}): () => TestSandbox {
  let sb: TestSandbox | undefined;
  beforeAll(async () => {
    sb = await startTestSandbox({ applyMaxMs: APPLY_MAX_MS, ...options });
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

/** Resolves once the sandbox has received `count` requests matching `filter` (all its organization's, from its start). */
export async function received(org: OrgTarget, filter: { method: string; path: string }, count: number): Promise<void> {
  await vi.waitFor(
    async () => {
      const sent = await org.control.requests(filter);
      if (sent.length < count) throw new Error(`${sent.length} of ${count} requests to ${filter.method} ${filter.path} so far`);
    },
    { timeout: 20_000, interval: 20 },
  );
}

/** Resolves once the running CLI has printed text matching `pattern` on stderr. */
export function printed(child: ChildProcess, pattern: RegExp): Promise<void> {
  let text = "";
  return new Promise((resolve) => {
    const look = (chunk: Buffer | string) => {
      text += chunk.toString();
      if (!pattern.test(text)) return;
      child.stderr!.off("data", look);
      resolve();
    };
    child.stderr!.on("data", look);
  });
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
