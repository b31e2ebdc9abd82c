// Which condition-report sets a shipment has, and how we know. The service has no read of reports: its status is the
// only sign, and it shows a set only once it has moved on (Filed and later hold set 1, Completed holds set 2; see
// window.ts holdsReportSet). Between a 201 and that move (the service applies a report a little later, or a status
// read from a list page read a moment before), the ledger's report books know better: a set recorded there as stored
// for this profile and base URL is shown as stored, from the ledger. Neither saying so: not stored, as the status
// shows.
//
// The books read are the single-upload book in the config folder and any book named by the caller (`due --journal`:
// a batch keeps its own beside its photos, where nothing else could find it).
import type { ReportSet, StoredShipment } from "../contract/index.js";
import { loadBook } from "../ledger/book-load.js";
import { targetId } from "../ledger/book-lines.js";
import { settleWindowFor } from "../ledger/settle-window.js";
import { CliError } from "../errors.js";
import { parseReportKey, singleReportBookPath } from "./report-book.js";
import { holdsReportSet } from "./window.js";

export type SetSource = "service" | "ledger";

export interface SetHeld {
  stored: boolean;
  /** service: what the status shows (stored or not); ledger: stored, recorded by an upload the status does not show yet. */
  source: SetSource;
}

export interface ReportSets {
  set_1: SetHeld;
  set_2: SetHeld;
}

/** `shipmentId/set` of every set the books record as stored. */
export type StoredInLedger = ReadonlySet<string>;

export function reportSetsOf(shipment: Pick<StoredShipment, "id" | "status">, ledger: StoredInLedger): ReportSets {
  const one = (set: ReportSet): SetHeld => {
    if (holdsReportSet(shipment.status, set)) return { stored: true, source: "service" };
    if (ledger.has(`${shipment.id}/${set}`)) return { stored: true, source: "ledger" };
    return { stored: false, source: "service" };
  };
  return { set_1: one(1), set_2: one(2) };
}

/** "set 1 (service), set 2 (ledger)", "set 1 (service)", "none". */
export function describeReportSets(sets: ReportSets): string {
  const held = ([1, 2] as const).filter((n) => sets[`set_${n}`].stored).map((n) => `set ${n} (${sets[`set_${n}`].source})`);
  return held.length === 0 ? "none" : held.join(", ");
}

export interface LedgerRead {
  stored: StoredInLedger;
  /** Books that could not be read, each with why; the sets are then shown from the service alone. */
  unreadable: string[];
}

/**
 * The sets recorded as stored for this profile and base URL. Read only: no lock is taken (a running upload may hold
 * the book; what it has recorded so far is what is shown) and nothing is written or migrated.
 */
export async function readStoredInLedger(
  connection: { baseUrl: string; profile: string },
  env: NodeJS.ProcessEnv,
  extraBooks: readonly string[] = [],
): Promise<LedgerRead> {
  const single = singleReportBookPath(env);
  const tid = targetId(connection.profile, connection.baseUrl);
  const window = settleWindowFor({ baseUrl: connection.baseUrl, env });
  const stored = new Set<string>();
  const unreadable: string[] = [];
  for (const path of [single, ...extraBooks]) {
    try {
      const book = await loadBook(path, "report-upload", tid, (why) => new CliError(why), { profile: connection.profile, window, readOnly: true });
      for (const [key, state] of book.rows) if (state.state === "stored" && parseReportKey(key)) stored.add(key);
    } catch (e) {
      unreadable.push(`${path}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return { stored, unreadable };
}
