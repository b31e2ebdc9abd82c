// Uploads an earlier run left in flight (recorded before sending, their answer never recorded: a kill, a second
// Ctrl-C, a lost answer) are settled before this run sends any report, with the ledger's engine (ledger/settle.ts):
// the shipment is read, and a status that holds the set means the upload arrived. Not found before its settle time
// (when its last byte left plus the longest the service may still be applying it), the service may still be applying
// it: the run waits, with a countdown, unless --no-wait; after it, the upload was not applied and is sent again.
// An upload whose last byte never left was settled as not applied when the ledger was opened (InputLedger.markSent).
// Before that, the owner check of the ledger, by the rule of every ledger (src/ledger/owner.ts): when this run's token
// is not the one that recorded reports as stored (another organization on the same URL, a rotated token, a ledger
// whose mark is missing), some of those shipments are read back before any report is skipped as stored. A shipment
// this token cannot see, or one that does not hold the set recorded as stored (a sandbox restarted since: its
// shipments are back at Delivered), stops the run before anything is read or sent (exit 2).
import { unlessUnseen } from "../api/api-errors.js";
import { messageOf } from "../errors.js";
import type { ApiClient, CallOptions } from "../api/client-types.js";
import { shipmentStatusName, type ReportSet } from "../contract/index.js";
import type { Deps } from "../deps.js";
import type { InputLedger } from "../ledger/input-ledger.js";
import { confirmLedgerOwner } from "../ledger/owner.js";
import { settleLedger } from "../ledger/settle-ledger.js";
import type { Finder, Settlement } from "../ledger/settle.js";
import { parseReportKey } from "./report-ledger.js";
import { mapLimit } from "../batch/pool.js";
import { holdsReportSet } from "./window.js";

/** Shipment reads at a time while settling: GETs with small answers, as many as a batch's confirming reads. */
export const SETTLE_READS = 16;

/**
 * What became of a report an earlier run left in flight, as far as this run can tell: applied (stored); in flight (the
 * service may still be applying it, waited no longer: --no-wait, Ctrl-C; not sent, a rerun after `settleAt` settles it);
 * uncertain (the shipment could not be read: not sent). One settled as not applied is sent as usual.
 */
export type Earlier = Exclude<Settlement, { state: "not-applied" }>;

/** Reads each report's shipment: the ones whose status holds the set were stored (found as the shipment's id). */
export function reportFinder(api: ApiClient, call: CallOptions): Finder {
  return {
    async find(rows) {
      const found = new Map<string, number>();
      await mapLimit(rows, SETTLE_READS, async (row) => {
        const report = parseReportKey(row.key);
        if (!report) return;
        const shipment = await unlessUnseen(api.getShipment(report.shipmentId, call));
        if (shipment && holdsReportSet(shipment.status, report.set)) found.set(row.key, report.shipmentId);
      });
      return found;
    },
  };
}

/** The highest set recorded as stored for a shipment (set 2 stored implies the shipment went past set 1). */
function storedSet(ledger: InputLedger, shipmentId: number): ReportSet | undefined {
  let highest: ReportSet | undefined;
  for (const [key, state] of ledger.entries()) {
    const report = parseReportKey(key);
    if (state.state === "stored" && report?.shipmentId === shipmentId && (highest === undefined || report.set > highest)) highest = report.set;
  }
  return highest;
}

export async function confirmReportLedgerOwner(ledger: InputLedger, options: { api: ApiClient; call: CallOptions; say: (text: string) => void }): Promise<void> {
  if (ledger.ownerConfirmed) return;
  await confirmLedgerOwner(ledger, {
    kind: "shipment",
    // Titles are not recorded: each shipment is checked for existence and for holding the set recorded as stored.
    records: async () => [...ledger.claimedIds()].map((id) => ({ id })),
    read: async (id) => {
      const set = storedSet(ledger, id);
      const shipment = await unlessUnseen(options.api.getShipment(id, options.call));
      if (shipment === undefined || set === undefined || holdsReportSet(shipment.status, set)) return shipment?.title;
      return { mismatch: `is ${shipmentStatusName(shipment.status)} here, so its set ${set} recorded as stored is not` };
    },
    say: options.say,
  });
}

/**
 * Settles the rows of `keys` that the ledger has in flight, recording what it proved (stored, or failed: to be sent
 * again). Returns what this run must not send; a report settled as not applied is absent (it is sent as usual).
 * Throws only what stops every report (the token, the subscription).
 */
export async function settleEarlierUploads(
  deps: Pick<Deps, "clock" | "signal" | "io">,
  ledger: InputLedger,
  api: ApiClient,
  o: { keys: ReadonlySet<string>; wait: boolean; isFatal: (e: unknown) => boolean },
): Promise<Map<string, Earlier>> {
  const pending = [...ledger.inFlight()].filter(([key]) => o.keys.has(key));
  const out = new Map<string, Earlier>();
  if (pending.length === 0) return out;
  const n = pending.length;
  deps.io.err(
    `${n} upload${n === 1 ? " was" : "s were"} in flight when an earlier run stopped (sent, answer never recorded); ` +
      `reading ${n === 1 ? "its shipment" : "their shipments"} to settle ${n === 1 ? "it" : "them"} before anything is sent...\n`,
  );
  try {
    const settled = await settleLedger(ledger, reportFinder(api, { signal: deps.signal }), deps, {
      only: (key) => o.keys.has(key),
      wait: o.wait,
      noun: "report",
      done: (id) => ({ state: "stored", ...(id === undefined ? {} : { id }), at: deps.clock.now().toISOString() }),
    });
    for (const [key, s] of settled) if (s.state !== "not-applied") out.set(key, s);
  } catch (e) {
    if (o.isFatal(e)) throw e;
    // Ctrl-C during a read ends it silently: those uploads stay in flight, said with their settle time.
    const reason = messageOf(e);
    for (const [key, state] of pending) {
      out.set(key, deps.signal.aborted ? { state: "in-flight", settleAt: new Date(state.settle_at) } : { state: "uncertain", reason });
    }
    if (!deps.signal.aborted) deps.io.err(`Could not read the shipments back (${reason}); those uploads stay recorded in flight, and are not sent.\n`);
  }
  const stored = [...out.values()].filter((e) => e.state === "applied").length;
  const unknown = out.size - stored;
  deps.io.err(`  ${stored} found stored, ${n - out.size} proven not stored (to be sent), ${unknown} still unknown (not sent).\n`);
  return out;
}
