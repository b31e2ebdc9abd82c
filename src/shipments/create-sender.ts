// Sends valid rows in file order, in requests of at most SHIPMENTS_PER_CREATE, with `concurrency` requests in
// flight. Around each request the journal records the intent ("sending", flushed before the request leaves) and the
// outcome (ids or error). A 422 fails the rows it names and sends the rest of that request again without them.
// A request whose answer is lost leaves its rows "sending" for reconciliation; nothing is resent blindly.
import { SHIPMENTS_PER_CREATE, type Shipment } from "../contract/index.js";
import { prepareCreateShipments } from "../api/endpoints.js";
import type { ApiClient, CallOptions, PreparedJson } from "../api/types.js";
import type { Clock } from "../clock.js";
import { columnForPath } from "../csv/columns.js";
import { classifyFailure } from "../ledger/failure-kind.js";
import type { Journal } from "../ledger/journal.js";
import type { Outcomes } from "../batch/outcomes.js";
import { Pool } from "../batch/pool.js";
import type { CellProblem } from "../csv/row-types.js";

export interface ReadyRow {
  key: string;
  row: number;
  label: string;
  reference?: string;
  payload: Shipment;
}

export interface LostRequest {
  rows: ReadyRow[];
  attempt: number;
  at: string;
}

export interface SenderOptions {
  api: ApiClient;
  journal: Journal;
  outcomes: Outcomes;
  clock: Clock;
  call: CallOptions;
  signal: AbortSignal;
  concurrency: number;
  /** Told after each request, for the progress line. */
  onSettled?: () => void;
}

/**
 * Requests recorded ahead of a free slot. The journal flushes in groups, so with several queued one fdatasync carries
 * the intents of several requests and the disk's sync latency stops setting the pace when the service answers
 * quickly. Each intent is still on disk before its request leaves. One never sent (the run stopped) leaves its rows
 * "sending": the next run reconciles them, finds them not created and sends them then.
 */
export const LOOKAHEAD_REQUESTS = 8;
/**
 * The reader resumes only once the queue is down to this many, then queues up to LOOKAHEAD_REQUESTS again at once:
 * the intents of those requests are recorded in one turn of the event loop and share one write and one fdatasync
 * (a 10,000-row run against a service answering in 20 ms: 250 fdatasyncs instead of 729, counted with strace).
 */
export const REFILL_AT = LOOKAHEAD_REQUESTS / 2;

/** An intent recorded for a request, and its body serialized ahead (while the request waits for a slot). */
interface Intent {
  attempt: number;
  at: string;
  durable: Promise<void>;
  payloads: Shipment[];
  prepared: PreparedJson<Shipment[]>;
}

export class CreateSender {
  private chunk: ReadyRow[] = [];
  private readonly pool: Pool;
  /** Requests recorded and waiting for a slot; `started` chains them so they start in file order. */
  private queued = 0;
  private started: Promise<void> = Promise.resolve();
  private readonly waiters: Array<() => void> = [];
  readonly lost: LostRequest[] = [];
  /** Why the run stopped early (Ctrl-C, authentication), if it did. */
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

  /** Sends what is left and waits for every request. */
  async finish(): Promise<void> {
    if (this.chunk.length > 0 && this.running) await this.dispatch();
    for (const r of this.chunk) this.o.outcomes.set(r.row, { status: "pending", label: r.label, reference: r.reference });
    this.chunk = [];
    await this.started;
    await this.pool.drain();
  }

  private async dispatch(): Promise<void> {
    const rows = this.chunk;
    this.chunk = [];
    // The intent is written while the request waits for a free slot, so it is on disk by the time the slot frees
    // and the journal's flush does not add to every request's time.
    const intent = this.intent(rows);
    intent.durable.catch(() => undefined);
    this.queued++;
    this.started = this.started
      .then(() => this.pool.add(() => this.send(rows, intent)))
      .finally(() => {
        this.queued--;
        // The reader refills on the next turn, not in this one: answers come in bursts (one per slot, all at once
        // from a service answering in fixed time), and the requests replacing them are written at the end of the
        // turn (undici reuses a socket after a full turn). Reading, building and recording the next requests here
        // would hold those writes back; done after them, it fills the time the slots wait for answers.
        if (this.queued <= REFILL_AT) {
          const reader = this.waiters.shift();
          if (reader) setImmediate(reader);
        }
      });
    // The reader waits while enough requests are queued: memory stays bounded and rows are not recorded far ahead.
    while (this.queued >= LOOKAHEAD_REQUESTS) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  private intent(rows: ReadyRow[]): Intent {
    const attempt = this.o.journal.nextAttempt();
    const at = this.o.clock.now().toISOString();
    // The service has no idempotency key: record the intent before sending, so a lost answer can be reconciled.
    const sending = { state: "sending", at, attempt } as const;
    const durable = this.o.journal.record(rows.map((r) => [r.key, sending] as const));
    const payloads = rows.map((r) => r.payload);
    return { attempt, at, durable, payloads, prepared: prepareCreateShipments(payloads) };
  }

  /** Sends `rows` as one request; after a 422, the rows it did not name go again as a new request. */
  private async send(initial: ReadyRow[], first: Intent): Promise<void> {
    let rows = initial;
    let intent = first;
    while (rows.length > 0) {
      await intent.durable;
      if (!this.running) {
        const notSent = { state: "failed", error: "not sent: the run stopped" } as const;
        this.o.journal.note(rows.map((r) => [r.key, notSent] as const));
        for (const r of rows) this.o.outcomes.set(r.row, { status: "pending", label: r.label, reference: r.reference });
        return;
      }
      rows = await this.sendOnce(rows, intent);
      this.o.onSettled?.();
      if (rows.length > 0) intent = this.intent(rows);
    }
  }

  /** Returns the rows to send again (after a 422), or [] when done. */
  private async sendOnce(rows: ReadyRow[], intent: Intent): Promise<ReadyRow[]> {
    const { journal, outcomes } = this.o;
    const { attempt, at } = intent;
    let ids: number[];
    try {
      const answer = await this.o.api.createShipments(intent.payloads, { ...this.o.call, prepared: intent.prepared });
      ids = answer.shipments.map((s) => s.id);
    } catch (error) {
      return this.failed(rows, error, attempt, at);
    }
    if (ids.length !== rows.length) {
      // The answer cannot be matched to the rows: treat it as lost and let reconciliation read what exists.
      this.lost.push({ rows, attempt, at });
      for (const r of rows) outcomes.set(r.row, { status: "unknown", label: r.label, reference: r.reference, error: "the answer did not list one id per row" });
      return [];
    }
    journal.note(rows.map((r, i) => [r.key, { state: "created", id: ids[i]! }] as const));
    rows.forEach((r, i) => outcomes.set(r.row, { status: "created", label: r.label, reference: r.reference, id: ids[i]! }));
    return [];
  }

  private async failed(rows: ReadyRow[], error: unknown, attempt: number, at: string): Promise<ReadyRow[]> {
    const { journal, outcomes } = this.o;
    const failure = classifyFailure(error);
    const fail = async (list: ReadyRow[], message: string, extra: { problems?: (r: ReadyRow) => CellProblem[]; unavailable?: boolean } = {}) => {
      const failed = { state: "failed", error: message } as const;
      journal.note(list.map((r) => [r.key, failed] as const));
      for (const r of list) {
        const problems = extra.problems?.(r);
        const error = problems && problems.length > 0 ? problems.map((p) => `${p.column}: ${p.reason}`).join("; ") : message;
        outcomes.set(r.row, { status: "failed", label: r.label, reference: r.reference, error, problems, unavailable: extra.unavailable });
      }
    };
    switch (failure.kind) {
      case "rejected": {
        const named = rows.filter((_, i) => failure.byIndex.has(i));
        if (named.length === 0) {
          // A 422 that names no row: every row of the request is refused with the service's message.
          await fail(rows, `the service refused the request: ${failure.message}`);
          return [];
        }
        const problemsOf = (r: ReadyRow): CellProblem[] =>
          (failure.byIndex.get(rows.indexOf(r)) ?? []).map((e) => ({
            column: e.field === "" ? "row" : columnForPath(e.field.split(".")),
            reason: e.messages.join(" "),
          }));
        await fail(named, "the service refused the row", { problems: problemsOf });
        return rows.filter((_, i) => !failure.byIndex.has(i));
      }
      case "refused":
        await fail(rows, failure.message, { unavailable: failure.unavailable });
        return [];
      case "lost":
        this.lost.push({ rows, attempt, at });
        for (const r of rows) outcomes.set(r.row, { status: "unknown", label: r.label, reference: r.reference, error: `answer lost (${failure.message})` });
        return [];
      case "stop":
        this.stopped ??= failure.error;
        if (failure.lost) this.lost.push({ rows, attempt, at });
        // Refused before it could apply (not authenticated): a rerun sends these rows without reconciling.
        else {
          const refused = { state: "failed", error: String((failure.error as Error).message) } as const;
          journal.note(rows.map((r) => [r.key, refused] as const));
        }
        for (const r of rows) outcomes.set(r.row, { status: failure.lost ? "unknown" : "pending", label: r.label, reference: r.reference });
        return [];
    }
  }
}
