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
 * The ids of the created shipments in the order `sent` lists them. The contract says the answer holds one `{id,
 * title}` per created shipment, not in which order: the ids are taken in the answer's order when its titles agree with
 * the request's, else by title when each title sent is one of the request's own and the answer's. Otherwise (titles
 * changed, or the same title twice in another order) []: the answer cannot be matched to the rows, which the sender
 * then reads back as it does a lost answer, rather than give a row another row's shipment.
 */
function createdIds(sent: readonly Shipment[], answer: ReadonlyArray<{ id: number; title: string }>): number[] {
  if (answer.length !== sent.length) return [];
  if (answer.every((a, i) => a.title === sent[i]!.title)) return answer.map((a) => a.id);
  const byTitle = new Map<string, number[]>();
  for (const a of answer) byTitle.set(a.title, [...(byTitle.get(a.title) ?? []), a.id]);
  const ids = sent.map((s) => byTitle.get(s.title));
  const sentTwice = new Set(sent.map((s) => s.title)).size !== sent.length;
  return sentTwice || ids.some((found) => found?.length !== 1) ? [] : ids.map((found) => found![0]!);
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
    send: async (rows) => {
      const sent = rows.map((r) => r.payload);
      return createdIds(sent, (await api.createShipments(sent, o.call)).shipments);
    },
    intent: (r) => r.print ?? { sent: shipmentOwn(r.payload) },
    settled: (r, id) => ({ state: "created", id, ...r.print }),
    problems: (failure, index) =>
      failure.byIndex.get(index)?.map((e) => ({ column: e.field === "" ? "row" : columnForPath(e.field.split(".")), reason: e.messages.join(" ") })),
    onFirstDone: (id, answeredAt) => lag.measure(id, answeredAt),
  };
  const sender = new WriteSender({ kind, api, ledger: o.ledger, outcomes: o.outcomes, clock: deps.clock, signal: deps.signal, concurrency: o.concurrency, onSettled: o.onSettled });
  return { sender, lag };
}
