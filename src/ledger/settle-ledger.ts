// Settling a ledger's writes in flight and recording what that proved: applied (its outcome: created with the id
// found, stored, paid) or not applied (sendable again). Rows still in flight, or uncertain, stay in flight in the ledger.
import type { Deps } from "../deps.js";
import type { InputLedger, RowState } from "./input-ledger.js";
import { settle, type Finder, type FlightRow, type Settlement } from "./settle.js";

const NOT_APPLIED = "its answer was lost, and it was not found on the service after its settle time: not applied";

export interface SettleLedgerOptions {
  /** Which in-flight rows to settle (all of this target's by default). */
  only?: (key: string) => boolean;
  wait: boolean;
  noun: string;
  /** The state recording what was found (created with its id, stored, paid); `key` the row's, as in flight. */
  done(found: number | undefined, key: string): RowState;
}

export async function settleLedger(ledger: InputLedger, finder: Finder, deps: Pick<Deps, "clock" | "signal" | "io">, o: SettleLedgerOptions): Promise<Map<string, Settlement>> {
  const rows: FlightRow[] = [];
  for (const [key, state] of ledger.inFlight()) if (o.only?.(key) ?? true) rows.push({ key, state });
  if (rows.length === 0) return new Map();
  const { io } = deps;
  // Waiting and talking as a command does: its clock and Ctrl-C, a countdown line on a terminal.
  const settled = await settle(rows, finder, {
    now: () => deps.clock.now(),
    sleep: (ms, signal) => deps.clock.sleep(ms, signal),
    signal: deps.signal,
    say: (text) => io.err(text),
    progress: io.stderrIsTTY ? { show: (text) => io.err(`\r\x1b[K${text}`), clear: () => io.err("\r\x1b[K") } : undefined,
    wait: o.wait,
    noun: o.noun,
  });
  const entries: Array<[string, RowState]> = [];
  for (const [key, s] of settled) {
    if (s.state === "applied") entries.push([key, o.done(s.id, key)]);
    else if (s.state === "not-applied") entries.push([key, { state: "failed", error: NOT_APPLIED }]);
  }
  await ledger.record(entries);
  return settled;
}
