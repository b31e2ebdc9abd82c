// The one sender of every write that must not repeat and carries rows (shipments created from a CSV, JSON or flags,
// CSV updates, addresses stored one by one or from a CSV): rows in input order, up to `perRequest` a request, with
// `concurrency` requests in flight. Around each request the ledger records the intent (in flight, with what is sent;
// flushed before the request leaves) and the outcome (ids or error). A 422 fails the rows it names and sends the
// others of that request again without them. A request whose answer is lost stays in flight for the read-back;
// nothing is resent blindly. What differs between writes (the request, what a 422 names) is the kind's.
import type { ApiClient } from "../api/client-types.js";
import type { Clock } from "../clock.js";
import { classifyFailure, type Failure } from "../ledger/failure-kind.js";
import type { InputLedger, RowState } from "../ledger/input-ledger.js";
import { offsetOf, settleAtFromIntent } from "../ledger/settle-window.js";
import type { CellProblem } from "../csv/row-types.js";
import type { Outcomes } from "./outcomes.js";
import { Pool } from "./pool.js";
import type { KeyedRow } from "./settle-lost.js";

export type Rejected = Extract<Failure, { kind: "rejected" }>;

/** What one kind of write sends, and how its answers map back to its rows. */
export interface WriteKind<R extends KeyedRow> {
  /** Rows a request carries at most. */
  perRequest: number;
  /** The state a row's answer records: "created" for POST, "updated" for PATCH. */
  done: "created" | "updated";
  /** Sends the rows as one request; resolves with one id per row, in order. */
  send(rows: R[]): Promise<number[]>;
  /** What a row's intent records beside its state: what was sent (a read-back after a lost answer matches it). */
  intent(row: R): object;
  /** What the ledger records of a row its request created or updated as `id`. */
  settled(row: R, id: number): RowState;
  /** The problems a 422 names for the row at `index` of the request (as the input's columns), or undefined. */
  problems(failure: Rejected, index: number): CellProblem[] | undefined;
  /** Told of the first id this sender gets, with when its answer came (service time, when the client knows it). */
  onFirstDone?(id: number, answeredAt: number): void;
}

export interface WriteSenderOptions<R extends KeyedRow> {
  kind: WriteKind<R>;
  api: Pick<ApiClient, "serviceClockOffsetMs">;
  ledger: InputLedger;
  outcomes: Outcomes;
  clock: Clock;
  /** The run's stop signal: once aborted, nothing new starts (requests in flight finish). */
  signal: AbortSignal;
  concurrency: number;
  /** Told after each request, for the progress line. */
  onSettled?: () => void;
}

export class WriteSender<R extends KeyedRow> {
  private chunk: R[] = [];
  private readonly pool: Pool;
  /** The first id came back: the kind was told of it (onFirstDone). */
  private firstDone = false;
  /** Rows whose answer was lost: in flight in the ledger, for the read-back. */
  readonly lost: R[] = [];
  /** Why the run stopped early (authentication, no subscription), if it did. */
  stopped: unknown;

  constructor(private readonly o: WriteSenderOptions<R>) {
    this.pool = new Pool(Math.max(1, o.concurrency));
  }

  /** False once the run must stop: the caller stops reading. */
  get running(): boolean {
    return this.stopped === undefined && !this.o.signal.aborted && !this.pool.failed;
  }

  async offer(row: R): Promise<void> {
    this.chunk.push(row);
    if (this.chunk.length >= this.o.kind.perRequest) await this.dispatch();
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
  private async intent(rows: R[]): Promise<void> {
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
    await ledger.record(rows.map((r) => [r.key, { ...state, ...this.o.kind.intent(r) }] as const));
  }

  /** Sends `rows` as one request; after a 422, the rows it did not name go again as a new request. */
  private async send(initial: R[], firstIntent: Promise<void>): Promise<void> {
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
  private async sendOnce(rows: R[]): Promise<R[]> {
    const { ledger, outcomes, clock, kind } = this.o;
    ledger.markSent(
      rows.map((r) => r.key),
      clock.now(),
    );
    let ids: number[];
    try {
      ids = await kind.send(rows);
    } catch (error) {
      return this.failed(rows, error);
    }
    if (ids.length !== rows.length) {
      // The answer cannot be matched to the rows: treat it as lost and let the read-back find what exists.
      this.lost.push(...rows);
      for (const r of rows) outcomes.set(r.row, { status: "unknown", label: r.label, reference: r.reference, error: "the answer's ids could not be matched to the rows" });
      return [];
    }
    if (!this.firstDone && ids.length > 0) {
      this.firstDone = true;
      const offset = this.o.api.serviceClockOffsetMs?.();
      if (offset !== undefined) kind.onFirstDone?.(ids[0]!, clock.now().getTime() + offset);
    }
    ledger.note(rows.map((r, i) => [r.key, kind.settled(r, ids[i]!)] as const));
    rows.forEach((r, i) => outcomes.set(r.row, { status: kind.done, label: r.label, reference: r.reference, id: ids[i]! }));
    return [];
  }

  private failed(rows: R[], error: unknown): R[] {
    const { ledger, outcomes } = this.o;
    const failure = classifyFailure(error);
    const fail = (list: R[], message: string, o: { problems?: (r: R) => CellProblem[] | undefined; unavailable?: boolean } = {}) => {
      const failed = list.map((r) => {
        const problems = o.problems?.(r);
        const text = problems && problems.length > 0 ? problems.map((p) => `${p.column}: ${p.reason}`).join("; ") : message;
        outcomes.set(r.row, { status: "failed", label: r.label, reference: r.reference, error: text, problems, unavailable: o.unavailable, cause: error });
        return [r.key, { state: "failed", error: text }] as const;
      });
      ledger.note(failed);
    };
    switch (failure.kind) {
      case "rejected": {
        const named = new Map<R, CellProblem[]>();
        rows.forEach((r, i) => {
          const problems = this.o.kind.problems(failure, i);
          if (problems !== undefined) named.set(r, problems);
        });
        if (named.size === 0) {
          // A 422 that names no row: every row of the request is refused with the service's message.
          fail(rows, rows.length === 1 ? failure.message : `the service refused the request: ${failure.message}`);
          return [];
        }
        fail([...named.keys()], failure.message, { problems: (r) => named.get(r) });
        return rows.filter((r) => !named.has(r));
      }
      case "refused":
        fail(rows, failure.message, { unavailable: failure.unavailable });
        return [];
      case "lost":
        if (failure.answered !== undefined) ledger.markAnswered(rows.map((r) => r.key), this.o.clock.now(), failure.answered);
        this.lost.push(...rows);
        for (const r of rows) outcomes.set(r.row, { status: "unknown", label: r.label, reference: r.reference, error: `answer lost (${failure.message})`, cause: error });
        return [];
      case "stop":
        this.stopped ??= failure.error;
        if (failure.lost) this.lost.push(...rows);
        // Refused before it could apply (not authenticated, or stopped before it left): a rerun sends these rows.
        else ledger.note(rows.map((r) => [r.key, { state: "failed", error: String((failure.error as Error).message) }] as const));
        for (const r of rows) outcomes.set(r.row, { status: failure.lost ? "unknown" : "pending", label: r.label, reference: r.reference, cause: error });
        return [];
    }
  }
}

/** A row sent alone (a CSV update, an address stored), by its own request. */
export interface RowJob extends KeyedRow {
  /** Sends the row; resolves with the id of what was created or updated. */
  send(): Promise<number>;
  /** The row's content hash, recorded with "updated" (an edited row is sent again on a rerun). */
  hash?: string;
  /** What a read-back after a lost answer matches (the address sent), recorded with the intent. */
  sent?: unknown;
  /** The request body, as a dry run reports it. */
  body: Record<string, unknown>;
}

/**
 * Writes of one row a request (PATCH, safe to send again; an address POST, never resent blindly: a lost answer is
 * read back). `columnFor`: the input's column behind a field key of a 422 ("fulfillment_address.phone").
 */
export function rowWrites<J extends RowJob>(done: "created" | "updated", columnFor: (field: string) => string): WriteKind<J> {
  return {
    perRequest: 1,
    done,
    send: async ([job]) => [await job!.send()],
    intent: (job) => (job.sent !== undefined ? { sent: job.sent } : {}),
    settled: (job, id) => (done === "updated" ? { state: "updated", id, ...(job.hash === undefined ? {} : { hash: job.hash }) } : { state: "created", id }),
    problems: (failure, index) => (index === 0 ? Object.entries(failure.errors).map(([key, messages]) => ({ column: columnFor(key), reason: messages.join(" ") })) : undefined),
  };
}
