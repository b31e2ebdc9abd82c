// A rehearsal checked against the run it rehearses (issue 12): run a batch command with --dry-run --json, check that
// it wrote and sent nothing and named every row once, then run it for real and check that the dry run's counts and
// exit code were the run's. Used by the dry-run tests and by the spreadsheet round trip.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect } from "vitest";
import { runCli, type RunResult } from "./cli.js";
import type { OrgTarget } from "./sandbox.js";

export type Counts = Record<string, number>;
export interface DryDoc {
  dry_run: true;
  would_send: Array<{ row: number }>;
  already_created: Array<{ row: number; shipment_id: number }>;
  already_updated?: Array<{ row: number; shipment_id: number }>;
  /** An update's rows whose records already hold them (its plan). */
  unchanged?: Array<{ row: number }>;
  unknown: Array<{ row: number; reason: string }>;
  blocked: Array<{ row: number; reason: string }>;
  invalid: Array<{ row: number; reason: string }>;
  not_sent: Array<{ row: number; reason: string }>;
  counts: Counts;
}

/** Every file under `dir` with its bytes: a dry run must leave them as they were. */
export function snapshot(...dirs: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.set(path, readFileSync(path, "latin1"));
    }
  };
  for (const d of dirs) walk(d);
  return out;
}

/** Requests that store or change something. */
async function writes(org: OrgTarget): Promise<number> {
  const stores = await Promise.all([
    org.control.requests({ method: "POST", path: "/api/v1/shipments" }),
    org.control.requests({ method: "POST", path: "/api/v1/addresses" }),
    org.control.requests({ method: "PATCH" }),
  ]);
  return stores.reduce((n, list) => n + list.length, 0);
}

/**
 * Runs `args` with --dry-run, then for real, in the same config folder. Checks that the dry run wrote nothing, that
 * its document names every row once, and that its counts and exit code are the run's. Returns both.
 */
export async function rehearseThenRun(
  org: OrgTarget,
  args: string[],
  configDir: string,
  done: "created" | "updated" = "created",
): Promise<{ dry: RunResult; doc: DryDoc; real: RunResult; counts: Counts }> {
  const folder = dirname(args[args.indexOf("--csv") + 1]!);
  const before = snapshot(folder, configDir);
  const writesBefore = await writes(org);
  const dry = await runCli([...args, "--dry-run", "--json"], { sandbox: org, configDir });
  expect(snapshot(folder, configDir), "a dry run writes nothing").toEqual(before);
  expect(await writes(org), "a dry run sends nothing").toBe(writesBefore);
  const doc = JSON.parse(dry.stdout) as DryDoc;
  expect(doc.dry_run).toBe(true);
  const lists = [doc.would_send, doc[`already_${done}`]!, doc.unknown, doc.blocked, doc.invalid, doc.not_sent, doc.unchanged ?? []];
  const rows = lists.flatMap((l) => l.map((e) => e.row));
  expect(new Set(rows).size).toBe(rows.length);
  expect(rows.length).toBe(doc.counts.rows);

  const real = await runCli([...args, "--json"], { sandbox: org, configDir });
  const counts = (JSON.parse(real.stdout) as { counts: Counts }).counts;
  expect(dry.exitCode, `dry run: ${dry.stderr}\nreal run: ${real.stderr}`).toBe(real.exitCode);
  expect({
    rows: doc.counts.rows,
    sent: doc.counts.would_send,
    already: doc.counts[`already_${done}`],
    unknown: doc.counts.unknown,
    failed: doc.counts.blocked! + doc.counts.invalid!,
    not_sent: doc.counts.not_sent,
    unchanged: doc.counts.unchanged ?? 0,
  }).toEqual({ rows: counts.rows, sent: counts[done], already: counts.skipped, unknown: counts.unknown, failed: counts.failed, not_sent: counts.not_sent, unchanged: counts.unchanged ?? 0 });
  return { dry, doc, real, counts };
}

