// Which condition-report sets a shipment has, and how we know. The service has no read of reports: its status is the
// only sign, and it shows a set only once it has moved on (Filed and later hold set 1, Completed holds set 2; see
// window.ts holdsReportSet). Between a 201 and that move (the service applies a report a little later, or a status
// read from a list page read a moment before), the organization's ledger knows better: a set recorded there as
// stored, by any upload (a batch, a manifest, a single upload), is shown as stored, from the ledger. Neither saying
// so: not stored, as the status shows.
import type { ReportSet, StoredShipment } from "../contract/index.js";
import type { Connection } from "../deps.js";
import { messageOf } from "../errors.js";
import { OrganizationLedger } from "../ledger/organization.js";
import { reportKey } from "./report-ledger.js";
import { holdsReportSet } from "./window.js";

export interface SetHeld {
  stored: boolean;
  /** service: what the status shows (stored or not); ledger: stored, recorded by an upload the status does not show yet. */
  source: "service" | "ledger";
}

export type ReportSets = Record<`set_${ReportSet}`, SetHeld>;

/** `shipmentId/set` of every set the ledgers record as stored. */
export type StoredInLedger = ReadonlySet<string>;

export function reportSetsOf(shipment: Pick<StoredShipment, "id" | "status">, ledger: StoredInLedger): ReportSets {
  const one = (set: ReportSet): SetHeld => {
    if (holdsReportSet(shipment.status, set)) return { stored: true, source: "service" };
    if (ledger.has(reportKey(shipment.id, set))) return { stored: true, source: "ledger" };
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
  /** Why the ledger could not be read, if it could not; the sets are then shown from the service alone. */
  unreadable?: string;
}

/**
 * The sets of these shipments recorded as stored in the organization's ledger: two entries per shipment whose status
 * does not show its set yet, looked up together. Read only: nothing is held or written.
 */
export async function readStoredInLedger(
  connection: Pick<Connection, "baseUrl" | "token" | "ledger">,
  env: NodeJS.ProcessEnv,
  shipments: ReadonlyArray<Pick<StoredShipment, "id" | "status">>,
): Promise<LedgerRead> {
  const keys = shipments.flatMap((s) => ([1, 2] as const).filter((set) => !holdsReportSet(s.status, set)).map((set) => reportKey(s.id, set)));
  try {
    // Opening a shared ledger connects to its database: one that does not answer is a ledger not read, too.
    const { store } = await OrganizationLedger.open(env, connection);
    const found = await store.findAll(keys.map((key) => `report:${key}`));
    return { stored: new Set(keys.filter((key) => found.get(`report:${key}`)?.state.state === "stored")) };
  } catch (e) {
    return { stored: new Set(), unreadable: messageOf(e) };
  }
}
