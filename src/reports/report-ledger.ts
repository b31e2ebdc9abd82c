// Report uploads in the organization's ledger (src/ledger/input-ledger.ts): one entry per report, keyed
// `<shipment id>/<set>` whichever input stored it (a batch, a manifest, a single upload), so `due` and `shipment get`
// find every set stored without being told where.
import type { ReportSet } from "../contract/index.js";
export function reportKey(shipmentId: number, set: ReportSet): string {
  return `${shipmentId}/${set}`;
}

/** The shipment and set of a row key; undefined for a key that is not a report's. */
export function parseReportKey(key: string): { shipmentId: number; set: ReportSet } | undefined {
  const m = /^(\d+)\/([12])$/.exec(key);
  return m ? { shipmentId: Number(m[1]), set: Number(m[2]) as ReportSet } : undefined;
}
