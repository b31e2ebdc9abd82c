// For tests that stop shipctl while the sandbox is still applying its request (the `slow-apply` fault): wait on the
// sandbox's own request log, never on a clock, and read the settle time a run recorded in its ledger book.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, vi } from "vitest";
import type { ShipmentShape } from "../../src/sandbox/defaults.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "./sandbox.js";

/** The sandbox's bound on applying a request in these tests: the CLI's settle window for it (plus 2 s to send, on loopback). */
export const APPLY_MAX_MS = 1500;
/** How long a slow-apply request is held before it is applied: well inside the bound. */
export const SLOW_MS = 1200;

/**
 * A sandbox with that bound, started before the tests of the file (or of the describe block it is called in) and
 * closed after them; call the result to reach it. `shipmentShape`: how it answers stored shipments' addresses.
 */
export function inFlightSandbox(options: { shipmentShape?: ShipmentShape } = {}): () => TestSandbox {
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

/** The latest settle time recorded for a row in flight in the ledger book at `path`. */
export function settleAtIn(path: string): number {
  const lines = readFileSync(path, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { state?: string; settle_at?: string });
  const times = lines.filter((l) => l.state === "in_flight" && typeof l.settle_at === "string").map((l) => Date.parse(l.settle_at!));
  if (times.length === 0) throw new Error(`no row in flight in ${path}`);
  return Math.max(...times);
}

/** Waits until this machine's clock has passed `at` (a settle time, on the same clock that recorded it). */
export async function passed(at: number): Promise<void> {
  const left = at - Date.now();
  if (left >= 0) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
