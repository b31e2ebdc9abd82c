// Books written by shipctl 0.1, read as ledger lines. Nothing they recorded is lost or guessed:
// - The CSV journal (JSON Lines, `shipctl_journal: 1`): the same records, with "sending" becoming in flight. It
//   recorded neither what was sent nor when its settle time is, so those rows settle after the window counted from
//   when they were recorded, and are matched against the input as it is now (the only record of what was sent).
// - The report journal (one JSON document, `.shipctl-report-journal.json`): entries per base URL become rows
//   keyed `<shipment id>/<set>` of a target per base URL, under the profile of the run that migrates it (the old
//   journal named no profile).
// Owner fingerprints (a bare SHA-256 prefix) are read as legacy marks (owner.ts) and replaced by a salted mark once
// the run's token matches them.
import { LEDGER_VERSION, targetId, type Line } from "./book-lines.js";
import type { SettleWindow } from "./settle-window.js";
import { settleAtFromIntent } from "./settle-window.js";

export interface MigrationContext {
  /** The profile of the run that migrates (the report journal named none). */
  profile: string;
  window: SettleWindow;
}

function inFlightFrom(at: unknown, attempt: unknown, window: SettleWindow): Record<string, unknown> {
  const when = typeof at === "string" && !Number.isNaN(Date.parse(at)) ? at : new Date(0).toISOString();
  return { state: "in_flight", at: when, attempt: Number(attempt) || 0, settle_at: settleAtFromIntent(new Date(when), window).toISOString() };
}

/** A version 1 CSV journal's lines (header first) as version 2 lines. */
export function fromVersion1(lines: Line[], ctx: MigrationContext): Line[] {
  const [header, ...records] = lines;
  const out: Line[] = [{ ...header, shipctl_journal: undefined, shipctl_ledger: LEDGER_VERSION, migrated: true }];
  for (const line of records) {
    if (line.state === "sending") {
      const { state: _s, at, attempt, ...rest } = line;
      out.push({ ...rest, ...inFlightFrom(at, attempt, ctx.window) });
    } else out.push(line);
  }
  return out;
}

interface ReportEntry {
  shipment_id?: unknown;
  set?: unknown;
  state?: unknown;
  updated_at?: unknown;
  detail?: unknown;
}

/** The report journal of shipctl 0.1 as version 2 lines (header first). */
export function fromReportJournal(text: string, ctx: MigrationContext, damaged: (why: string) => Error): Line[] {
  let data: { kind?: unknown; version?: unknown; entries?: unknown; owners?: unknown };
  try {
    data = JSON.parse(text) as typeof data;
  } catch {
    throw damaged("it is not JSON");
  }
  if (data.kind !== "shipctl-report-journal" || data.version !== 1 || typeof data.entries !== "object" || data.entries === null) {
    throw damaged("it is not a shipctl report journal");
  }
  const owners = typeof data.owners === "object" && data.owners !== null ? (data.owners as Record<string, unknown>) : {};
  const out: Line[] = [{ shipctl_ledger: LEDGER_VERSION, kind: "report-upload", source: "report journal of shipctl 0.1", migrated: true }];
  const targets = new Map<string, string>();
  let attempt = 0;
  for (const [key, raw] of Object.entries(data.entries as Record<string, ReportEntry>)) {
    const space = key.lastIndexOf(" ");
    const baseUrl = key.slice(0, space);
    if (space < 0 || typeof raw !== "object" || raw === null) continue;
    let tid = targets.get(baseUrl);
    if (tid === undefined) {
      tid = targetId(ctx.profile, baseUrl);
      targets.set(baseUrl, tid);
      out.push({ target: tid, base_url: baseUrl, profile: ctx.profile, owner: owners[baseUrl] });
    }
    const row = `${String(raw.shipment_id)}/${String(raw.set)}`;
    if (raw.state === "stored") {
      const id = Number(raw.shipment_id);
      out.push({ t: tid, row, state: "stored", ...(Number.isSafeInteger(id) ? { id } : {}), at: raw.updated_at });
    }
    else if (raw.state === "failed") out.push({ t: tid, row, state: "failed", error: String(raw.detail ?? "failed") });
    else if (raw.state === "sending") out.push({ t: tid, row, ...inFlightFrom(raw.updated_at, ++attempt, ctx.window) });
  }
  return out;
}
