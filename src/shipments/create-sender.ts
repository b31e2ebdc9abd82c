// Sends valid rows in file order, in requests of at most SHIPMENTS_PER_CREATE, with `concurrency` requests in
// flight. Around each request the ledger records the intent (in flight, with what is sent; flushed before the
// request leaves) and the outcome (ids or error). A 422 fails the rows it names and sends the rest of that request
// again without them. A request whose answer is lost stays in flight for the read-back; nothing is resent blindly.
import { shipmentOwn, SHIPMENTS_PER_CREATE, type Shipment } from "../contract/index.js";
import type { ApiClient, CallOptions } from "../api/client-types.js";
import type { Clock } from "../clock.js";
import { columnForPath } from "../csv/columns.js";
import { classifyFailure } from "../ledger/failure-kind.js";
import type { InputLedger, RowState } from "../ledger/input-ledger.js";
import { offsetOf, settleAtFromIntent } from "../ledger/settle-window.js";
import type { Outcomes } from "../batch/outcomes.js";
import { Pool } from "../batch/pool.js";
import type { CellProblem } from "../csv/row-types.js";
import type { Deps } from "../deps.js";
import { lagMeter } from "./shipment-read-back.js";
import type { RowPrint } from "./changed-rows.js";

export interface ReadyRow {
  key: string;
  row: number;
  label: string;
  reference?: string;
  payload: Shipment;
  /** A CSV row's print (changed-rows.ts): recorded with its intent and outcome, so a rerun knows it edited. */
  print?: RowPrint;
}

export interface LostRequest {
  rows: ReadyRow[];
}

export interface SenderOptions {
  api: ApiClient;
  ledger: InputLedger;
  outcomes: Outcomes;
  clock: Clock;
  call: CallOptions;
  /** The run's stop signal: once aborted, nothing new starts (requests in flight finish). */
  signal: AbortSignal;
  concurrency: number;
  /** Told after each request, for the progress line. */
  onSettled?: () => void;
  /** Told of the first shipment this run created, with when its answer came (service time): the lag is measured on it. */
  onFirstCreated?: (id: number, answeredAt: number) => void;
}

export class CreateSender {
  private chunk: ReadyRow[] = [];
  private readonly pool: Pool;
  private created = false;
  readonly lost: LostRequest[] = [];
  /** Why the run stopped early (authentication, no subscription), if it did. */
  stopped: unknown;

  constructor(private readonly o: SenderOptions) {
    this.pool = new Pool(Math.max(1, o.concurrency));
  }

  /** False once the run must stop: the caller stops reading. */
  get running(): boolean {
    return this.stopped === undefined && !this.o.signal.aborted && !this.pool.failed;
  }

  async offer(row: ReadyRow): Promise<void> {
    this.chunk.push(row);
    if (this.chunk.length >= SHIPMENTS_PER_CREATE.max) await this.dispatch();
  }

  /** Sends what is left and waits for every request; rows never sent are "pending". */
  async finish(): Promise<void> {
    if (this.chunk.length > 0 && this.running) await this.dispatch();
    for (const r of this.chunk) this.o.outcomes.set(r.row, { status: "pending", label: r.label, reference: r.reference });
    this.chunk = [];
    await this.pool.drain();
  }

  private async dispatch(): Promise<void> {
    const rows = this.chunk;
    this.chunk = [];
    // The intent is recorded and flushed while the request waits for a free slot: when one frees, the request leaves
    // at once. The reader waits while no slot is free.
    const intent = this.intent(rows);
    intent.catch(() => undefined);
    await this.pool.add(() => this.send(rows, intent));
  }

  /**
   * The service has no idempotency key: the intent (and what is sent) is on disk before the request leaves, so a lost
   * answer can be settled by reading back. Recorded ahead, it counts its settle time from when the request left
   * (InputLedger.markSent, just before the call).
   */
  private async intent(rows: ReadyRow[]): Promise<void> {
    const { ledger, clock } = this.o;
    const at = clock.now();
    const state: RowState = {
      state: "in_flight",
      at: at.toISOString(),
      attempt: ledger.nextAttempt(),
      settle_at: settleAtFromIntent(at, ledger.window).toISOString(),
      await_sent: true,
      ...offsetOf(this.o.api),
    };
    await ledger.record(rows.map((r) => [r.key, { ...state, ...(r.print ?? { sent: shipmentOwn(r.payload) }) }] as const));
  }

  /** Sends `rows` as one request; after a 422, the rows it did not name go again as a new request. */
  private async send(initial: ReadyRow[], firstIntent: Promise<void>): Promise<void> {
    let rows = initial;
    let intent = firstIntent;
    while (rows.length > 0) {
      await intent;
      if (!this.running) {
        // Recorded, never sent: a rerun sends these rows without reading back.
        this.o.ledger.note(rows.map((r) => [r.key, { state: "failed", error: "not sent: the run stopped" }] as const));
        for (const r of rows) this.o.outcomes.set(r.row, { status: "pending", label: r.label, reference: r.reference });
        return;
      }
      rows = await this.sendOnce(rows);
      this.o.onSettled?.();
      if (rows.length > 0) intent = this.intent(rows);
    }
  }

  /** Sends one request and records its outcome. Returns the rows to send again (after a 422), or []. */
  private async sendOnce(rows: ReadyRow[]): Promise<ReadyRow[]> {
    const { ledger, outcomes, clock } = this.o;
    ledger.markSent(
      rows.map((r) => r.key),
      clock.now(),
    );
    let ids: number[];
    try {
      const answer = await this.o.api.createShipments(rows.map((r) => r.payload), this.o.call);
      ids = answer.shipments.map((s) => s.id);
    } catch (error) {
      return this.failed(rows, error);
    }
    if (ids.length !== rows.length) {
      // The answer cannot be matched to the rows: treat it as lost and let the read-back find what exists.
      this.lost.push({ rows });
      for (const r of rows) outcomes.set(r.row, { status: "unknown", label: r.label, reference: r.reference, error: "the answer did not list one id per row" });
      return [];
    }
    if (!this.created && ids.length > 0) {
      this.created = true;
      const offset = this.o.api.serviceClockOffsetMs?.();
      if (offset !== undefined) this.o.onFirstCreated?.(ids[0]!, clock.now().getTime() + offset);
    }
    ledger.note(rows.map((r, i) => [r.key, { state: "created", id: ids[i]!, ...r.print }] as const));
    rows.forEach((r, i) => outcomes.set(r.row, { status: "created", label: r.label, reference: r.reference, id: ids[i]! }));
    return [];
  }

  private failed(rows: ReadyRow[], error: unknown): ReadyRow[] {
    const { ledger, outcomes } = this.o;
    const failure = classifyFailure(error);
    const fail = (list: ReadyRow[], message: string, extra: { problems?: (r: ReadyRow) => CellProblem[]; unavailable?: boolean } = {}) => {
      ledger.note(list.map((r) => [r.key, { state: "failed", error: message }] as const));
      for (const r of list) {
        const problems = extra.problems?.(r);
        const text = problems && problems.length > 0 ? problems.map((p) => `${p.column}: ${p.reason}`).join("; ") : message;
        outcomes.set(r.row, { status: "failed", label: r.label, reference: r.reference, error: text, problems, unavailable: extra.unavailable });
      }
    };
    switch (failure.kind) {
      case "rejected": {
        const named = rows.filter((_, i) => failure.byIndex.has(i));
        if (named.length === 0) {
          // A 422 that names no row: every row of the request is refused with the service's message.
          fail(rows, `the service refused the request: ${failure.message}`);
          return [];
        }
        const problemsOf = (r: ReadyRow): CellProblem[] =>
          (failure.byIndex.get(rows.indexOf(r)) ?? []).map((e) => ({
            column: e.field === "" ? "row" : columnForPath(e.field.split(".")),
            reason: e.messages.join(" "),
          }));
        fail(named, "the service refused the row", { problems: problemsOf });
        return rows.filter((_, i) => !failure.byIndex.has(i));
      }
      case "refused":
        fail(rows, failure.message, { unavailable: failure.unavailable });
        return [];
      case "lost":
        if (failure.answered !== undefined) ledger.markAnswered(rows.map((r) => r.key), this.o.clock.now(), failure.answered);
        this.lost.push({ rows });
        for (const r of rows) outcomes.set(r.row, { status: "unknown", label: r.label, reference: r.reference, error: `answer lost (${failure.message})` });
        return [];
      case "stop":
        this.stopped ??= failure.error;
        if (failure.lost) this.lost.push({ rows });
        // Refused before it could apply (not authenticated, or stopped before it left): a rerun sends these rows.
        else fail(rows, String((failure.error as Error).message));
        for (const r of rows) outcomes.set(r.row, { status: failure.lost ? "unknown" : "pending", label: r.label, reference: r.reference });
        return [];
    }
  }
}

/**
 * The sender of a run that creates shipments (CSV rows or items): the run's client, clock and Ctrl-C, and the service's
 * created_at lag measured on the first shipment it creates. Wait for `lag.done()` before the run ends.
 */
export async function startCreateSender(
  deps: Deps,
  o: Pick<SenderOptions, "ledger" | "outcomes" | "call" | "concurrency" | "onSettled">,
): Promise<{ sender: CreateSender; lag: { done(): Promise<void> } }> {
  const lag = lagMeter(deps, o.call);
  const sender = new CreateSender({
    ...o,
    api: await deps.api(),
    clock: deps.clock,
    signal: deps.signal,
    onFirstCreated: (id, answeredAt) => lag.measure(id, answeredAt),
  });
  return { sender, lag };
}
