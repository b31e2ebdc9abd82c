// What an organization's ledger holds after runs against a sandbox organization (test/helpers/cli.ts stateDirFor):
// its entries in flight, its locks held, and the records of its inputs.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { stateDirFor, type CliTarget } from "./cli.js";
import { inputRecordPath, inputScope } from "../../src/ledger/entry-keys.js";
import type { WriteKind } from "../../src/ledger/entry.js";
import { LocalStore } from "../../src/ledger/local-store.js";
import { ledgerDir } from "../../src/ledger/organization.js";

function ledgers(stateDir: string): string[] {
  const root = join(stateDir, "ledger");
  return existsSync(root) ? readdirSync(root).map((d) => join(root, d)) : [];
}

function filesIn(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((n) => !n.startsWith(".")).map((n) => join(dir, n)) : [];
}

/** The entries in flight in the organization's ledger (the state folder of `target`'s runs, or `stateDir`). */
export function inFlightEntries(target: CliTarget | string): Array<{ key: string; input: string; state: { state: string } }> {
  const dir = typeof target === "string" ? target : stateDirFor(target);
  return ledgers(dir).flatMap((l) => filesIn(join(l, "in-flight"))).flatMap((f) => {
    const text = readFileSync(f, "utf8");
    return text.trim() === "" ? [] : [JSON.parse(text) as { key: string; input: string; state: { state: string } }];
  });
}

/** The locks held in the organization's ledger (one per input a run holds). */
export function heldLocks(target: CliTarget | string): string[] {
  const dir = typeof target === "string" ? target : stateDirFor(target);
  return ledgers(dir).flatMap((l) => filesIn(join(l, "locks")));
}

/** The text of every input record in the organization's ledger. */
export function inputRecords(target: CliTarget | string): string[] {
  const dir = typeof target === "string" ? target : stateDirFor(target);
  return inputRecordPaths(dir).map((f) => readFileSync(f, "utf8"));
}

/** The paths of the input records in the organization's ledger (what the owner check's messages name). */
export function inputRecordPaths(target: CliTarget | string): string[] {
  const dir = typeof target === "string" ? target : stateDirFor(target);
  return ledgers(dir).flatMap((l) => filesIn(join(l, "inputs")));
}

/** The lock a run holds on an input while it runs (`source`: the input's real path, "stdin", "flags"...). */
export function inputLockPath(stateDir: string, baseUrl: string, kind: WriteKind, source: string): string {
  return new LocalStore(ledgerDir({ SHIPCTL_STATE_DIR: stateDir }, { baseUrl })).lockPath(inputScope(kind, source));
}

/** The state folder of runs given `configDir` and no SHIPCTL_STATE_DIR (src/config/paths.ts: `<config>/state`). */
export function stateDirOf(configDir: string): string {
  return join(configDir, "state");
}

/** The text of the one input record in the ledger of runs given `configDir`; fails when there is not exactly one. */
export function onlyInputRecord(configDir: string): string {
  const records = inputRecords(stateDirOf(configDir));
  if (records.length !== 1) throw new Error(`${records.length} input records in ${stateDirOf(configDir)}, not one`);
  return records[0]!;
}

/** The path of an input's record (what a results document's "ledger" and stderr's `Ledger:` name). */
export function inputRecordPathOf(stateDir: string, baseUrl: string, kind: WriteKind, source: string): string {
  return inputRecordPath(ledgerDir({ SHIPCTL_STATE_DIR: stateDir }, { baseUrl }), inputScope(kind, source));
}
