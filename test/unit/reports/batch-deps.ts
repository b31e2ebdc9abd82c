// Deps for running `report upload` in-process against a fake API: no terminal, JSON output, a fixed clock, a config
// folder of its own (single uploads keep their ledger there), and a connection that needs no config (a service that
// is not on loopback is never asked for its tables). Also a batch folder and a fake service most tests can share.
import { join } from "node:path";
import { createDeps, DEFAULT_GLOBALS, type BaseDeps, type Deps } from "../../../src/deps.js";
import type { ApiClient, MultipartBody } from "../../../src/api/client-types.js";
import type { StoredShipment } from "../../../src/contract/index.js";
import type { Clock } from "../../../src/clock.js";
import { createTestIO, type TestIO } from "../../helpers/test-io.js";
import { scriptedPrompter } from "../../helpers/prompter.js";
import { fixture, tempDir } from "../../helpers/cli.js";
import { ownCopy } from "../../helpers/own-photos.mjs";

/**
 * The state folder (the organization's ledger) of these tests' runs: a test writes what an earlier run left there.
 * A test file gives each test its own (`reportState.dir = tempDir()` before each).
 */
export const reportState = { dir: tempDir("shipctl-state-") };

export function batchDepsFor(api: unknown, now: Date, extra: { signal?: AbortSignal; configDir?: string; clock?: Clock } = {}): { deps: Deps; io: TestIO } {
  const io = createTestIO({ tty: false });
  const base: BaseDeps = {
    io,
    prompter: scriptedPrompter([]),
    clock: extra.clock ?? { now: () => now, sleep: async () => undefined },
    env: { SHIPCTL_CONFIG_DIR: extra.configDir ?? tempDir("shipctl-config-"), SHIPCTL_STATE_DIR: reportState.dir },
    cwd: process.cwd(),
    signal: extra.signal ?? new AbortController().signal,
    connect: async () => ({
      profile: "t",
      baseUrl: "http://x",
      token: "t",
      tables: async () => {
        throw new Error("unused");
      },
      sources: { baseUrl: "env", token: "env", profile: "default" },
    }),
    makeApi: async () => api as ApiClient,
  };
  return { deps: createDeps(base, { ...DEFAULT_GLOBALS, json: true }), io };
}

/** ROOT/<id>/ for each id, each a copy of the nested photo fixture with photos of its own (a set refuses another's). */
export function batchOf(ids: number[]): string {
  const root = tempDir();
  for (const id of ids) ownCopy(fixture("photos/nested"), join(root, String(id)));
  return root;
}

/** Shipments Delivered (7) unless told otherwise, delivered a day before 2025-03-02 12:00; an upload moves its shipment to Filed (8). */
export class StatusService {
  status = new Map<number, number>();
  reads: number[] = [];
  uploads: number[] = [];
  async getShipment(id: number): Promise<StoredShipment> {
    this.reads.push(id);
    return { id, title: "T", status: this.status.get(id) ?? 7, delivered_at: "2025-03-01 12:00:00" };
  }
  async uploadReport(id: number, _set: number, body: MultipartBody): Promise<void> {
    this.uploads.push(id);
    for await (const _ of body.open().stream) {
      // drain the body as a connection would
    }
    this.status.set(id, 8);
  }
  async close(): Promise<void> {}
}
