// Report uploads in the organization's ledger (src/ledger/input-ledger.ts): one entry per report, keyed
// `<shipment id>/<set>` whichever input stored it (a batch, a manifest, a single upload), so `due` and `shipment get`
// find every set stored without being told where. The input is the batch's root, the manifest's path, or
// "report upload" for single uploads.
import { realpath } from "node:fs/promises";
import type { ReportSet } from "../contract/index.js";
import type { Deps } from "../deps.js";
import { InputLedger } from "../ledger/input-ledger.js";
import { seenBy } from "../ledger/owner.js";
import { settleWindowOf } from "../ledger/settle-window.js";
import type { UploadSource } from "./upload-plan.js";

export function reportKey(shipmentId: number, set: ReportSet): string {
  return `${shipmentId}/${set}`;
}

/** The shipment and set of a row key; undefined for a key that is not a report's. */
export function parseReportKey(key: string): { shipmentId: number; set: ReportSet } | undefined {
  const m = /^(\d+)\/([12])$/.exec(key);
  return m ? { shipmentId: Number(m[1]), set: Number(m[2]) as ReportSet } : undefined;
}

/** The input a report upload's entries name: a batch's root or a manifest (their real paths), or single uploads. */
export async function reportInput(source: UploadSource): Promise<string> {
  if (source.kind === "single") return "report upload";
  const path = source.kind === "batch" ? source.root : source.file;
  return realpath(path).catch(() => path);
}

/** Opens the run's record in the organization's ledger, held against other runs of the same input. */
export async function openReportLedger(deps: Deps, source: UploadSource): Promise<InputLedger> {
  const connection = await deps.connection();
  return InputLedger.open(deps.env, {
    kind: "report-upload",
    source: await reportInput(source),
    target: { baseUrl: connection.baseUrl, token: connection.token, ledger: connection.ledger, sees: seenBy(await deps.api(), { signal: deps.signal }), say: (text) => deps.io.err(text) },
    window: await settleWindowOf(connection, deps.env),
  });
}
