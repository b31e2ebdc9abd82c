// Shipments created ten a request (POST /api/v1/shipments), through the one sender of writes (batch/write-sender.ts):
// a row's intent records the shipment as sent (or the CSV row's print), a 422 names rows by their index in the
// request, and the service's created_at lag is measured on the first shipment created.
import { shipmentOwn, SHIPMENTS_PER_CREATE, type Shipment } from "../contract/index.js";
import type { CallOptions } from "../api/client-types.js";
import { columnForPath } from "../csv/columns.js";
import type { InputLedger } from "../ledger/input-ledger.js";
import type { Outcomes } from "../batch/outcomes.js";
import { WriteSender, type WriteKind } from "../batch/write-sender.js";
import type { KeyedRow } from "../batch/settle-lost.js";
import type { Deps } from "../deps.js";
import { lagMeter } from "./shipment-read-back.js";
import type { RowPrint } from "./changed-rows.js";

export interface ReadyRow extends KeyedRow {
  payload: Shipment;
  /** A CSV row's print (changed-rows.ts): recorded with its intent and outcome, so a rerun knows it edited. */
  print?: RowPrint;
}

/**
 * The sender of a run that creates shipments (CSV rows or items): the run's client, clock and Ctrl-C, and the service's
 * created_at lag measured on the first shipment it creates. Wait for `lag.done()` before the run ends.
 */
export async function startCreateSender(
  deps: Deps,
  o: { ledger: InputLedger; outcomes: Outcomes; call: CallOptions; concurrency: number; onSettled?: () => void },
): Promise<{ sender: WriteSender<ReadyRow>; lag: { done(): Promise<void> } }> {
  const lag = lagMeter(deps, o.call);
  const api = await deps.api();
  const kind: WriteKind<ReadyRow> = {
    perRequest: SHIPMENTS_PER_CREATE.max,
    done: "created",
    send: async (rows) => (await api.createShipments(rows.map((r) => r.payload), o.call)).shipments.map((s) => s.id),
    intent: (r) => r.print ?? { sent: shipmentOwn(r.payload) },
    settled: (r, id) => ({ state: "created", id, ...r.print }),
    problems: (failure, index) =>
      failure.byIndex.get(index)?.map((e) => ({ column: e.field === "" ? "row" : columnForPath(e.field.split(".")), reason: e.messages.join(" ") })),
    onFirstDone: (id, answeredAt) => lag.measure(id, answeredAt),
  };
  const sender = new WriteSender({ kind, api, ledger: o.ledger, outcomes: o.outcomes, clock: deps.clock, signal: deps.signal, concurrency: o.concurrency, onSettled: o.onSettled });
  return { sender, lag };
}
