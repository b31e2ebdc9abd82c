// Reading an input's record (record-lines.ts) into memory: its rows' states and its address verdicts.
import { readFile } from "node:fs/promises";
import { uptime } from "node:os";
import { settleAtFromSent, type SettleWindow } from "./settle-window.js";
import { recordLines, LEDGER_VERSION, statesOf, type Line } from "./record-lines.js";
import type { WriteKind, RowState, Verdict } from "./entry.js";

export interface LoadedRecord {
  rows: Map<string, RowState>;
  verdicts: Map<string, Verdict>;
}

export async function loadRecord(path: string, kind: WriteKind, damaged: (why: string) => Error): Promise<LoadedRecord> {
  const ledger: LoadedRecord = { rows: new Map(), verdicts: new Map() };
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return ledger;
    throw e;
  }
  if (text.trim() === "") return ledger;
  const lines = recordLines(text, (lineNo) => {
    throw damaged(`line ${lineNo} is not readable`);
  });
  const header = lines[0];
  if (header?.shipctl_ledger !== LEDGER_VERSION || header.kind !== kind) throw damaged(`it is not a shipctl ${kind} record (version ${LEDGER_VERSION})`);
  for (const line of lines.slice(1)) apply(ledger, line);
  return ledger;
}

function apply(ledger: LoadedRecord, line: Line): void {
  if (typeof line.address === "string") {
    ledger.verdicts.set(line.address, line.verdict as Verdict);
    return;
  }
  if (line.state === undefined && (typeof line.sent_at === "string" || typeof line.answered_at === "string")) {
    // A request in flight whose last byte left (InputLedger.markSent) or that the service answered (InputLedger.markAnswered): its
    // settle time moves.
    const { row: _row, rows: _rows, ...facts } = line;
    for (const [key] of statesOf(line)) {
      const s = ledger.rows.get(key);
      if (s?.state === "in_flight") ledger.rows.set(key, { ...s, ...facts, settle_at: String(line.settle_at ?? s.settle_at) });
    }
    return;
  }
  for (const [key, state] of statesOf(line)) ledger.rows.set(key, state);
}

/**
 * A request recorded with `await_sent` and no `sent_at` never handed its last byte to the connection, unless the
 * machine restarted since (a crash can lose the line): such a row was certainly not applied. After a restart, it was
 * sent, if at all, before the restart. Returns the rows proven not sent (`keyed`: as the record writes a state).
 */
export function settleUnsent(rows: Map<string, RowState>, window: SettleWindow, keyed: (key: string, state: RowState) => RowState): Array<[string, RowState]> {
  const bootMs = Date.now() - uptime() * 1000;
  const unsent: Array<[string, RowState]> = [];
  for (const [key, s] of rows) {
    if (s.state !== "in_flight" || !s.await_sent || s.sent_at !== undefined) continue;
    if (Date.parse(s.at) >= bootMs) unsent.push([key, keyed(key, { state: "failed", error: "not sent: the run stopped before its request left whole" })]);
    else rows.set(key, { ...s, settle_at: settleAtFromSent(new Date(bootMs), window).toISOString() });
  }
  for (const [key, state] of unsent) rows.set(key, state);
  return unsent;
}
