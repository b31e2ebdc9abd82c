// One request per row, `concurrency` in flight, with the ledger around each: used by `shipment update --csv`
// (PATCH, safe to send again) and `address add --csv` (POST, never resent blindly: a lost answer is read back).
import type { ApiClient } from "../api/client-types.js";
import type { Clock } from "../clock.js";
import { classifyFailure } from "../ledger/failure-kind.js";
import type { InputLedger } from "../ledger/input-ledger.js";
import type { LostRow } from "./settle-lost.js";
import { offsetOf, settleAtFromIntent } from "../ledger/settle-window.js";
import type { Outcomes } from "./outcomes.js";
import { Pool } from "./pool.js";
import type { CellProblem } from "../csv/row-types.js";

export interface RowJob extends LostRow {
  /** Sends the row; resolves with the id of what was created or updated. */
  send(): Promise<number>;
  /** The row's content hash, recorded with "updated" (an edited row is sent again on a rerun). */
  hash?: string;
  /** What a read-back after a lost answer matches (the address sent), recorded with the intent. */
  sent?: unknown;
  /** The request body, as a dry run reports it. */
  body: Record<string, unknown>;
}

export interface RowSenderOptions {
  ledger: InputLedger;
  api: ApiClient;
  outcomes: Outcomes;
  clock: Clock;
  signal: AbortSignal;
  concurrency: number;
  /** "created" for POST, "updated" for PATCH. */
  done: "created" | "updated";
  /** The CSV column behind a field key of a 422 ("fulfillment_address.phone" -> "fulfillment_phone"). */
  columnFor(field: string): string;
  onSettled?: () => void;
}

export class RowSender<J extends RowJob> {
  private readonly pool: Pool;
  readonly lost: J[] = [];
  stopped: unknown;

  constructor(private readonly o: RowSenderOptions) {
    this.pool = new Pool(Math.max(1, o.concurrency));
  }

  get running(): boolean {
    return this.stopped === undefined && !this.o.signal.aborted && !this.pool.failed;
  }

  async offer(job: J): Promise<void> {
    await this.pool.add(() => this.send(job));
  }

  async finish(): Promise<void> {
    await this.pool.drain();
  }

  private async send(job: J): Promise<void> {
    const { ledger: ledger, outcomes } = this.o;
    const base = { label: job.label, reference: job.reference };
    if (!this.running) {
      outcomes.set(job.row, { status: "pending", ...base });
      return;
    }
    // The service has no idempotency key: record the intent (and what is sent) before sending.
    const at = this.o.clock.now();
    await ledger.record([
      [
        job.key,
        {
          state: "in_flight",
          at: at.toISOString(),
          attempt: ledger.nextAttempt(),
          settle_at: settleAtFromIntent(at, ledger.window).toISOString(),
          ...offsetOf(this.o.api),
          ...(job.sent !== undefined ? { sent: job.sent } : {}),
        },
      ],
    ]);
    try {
      const id = await job.send();
      ledger.note([[job.key, this.o.done === "updated" && job.hash !== undefined ? { state: "updated", id, hash: job.hash } : { state: this.o.done, id }]]);
      outcomes.set(job.row, { status: this.o.done, ...base, id });
    } catch (error) {
      const failure = classifyFailure(error);
      const fail = async (message: string, extra: { problems?: CellProblem[]; unavailable?: boolean } = {}) => {
        ledger.note([[job.key, { state: "failed", error: message }]]);
        outcomes.set(job.row, { status: "failed", ...base, error: message, ...extra, cause: error });
      };
      switch (failure.kind) {
        case "rejected": {
          const problems = Object.entries(failure.errors).map(([key, messages]) => ({ column: this.o.columnFor(key), reason: messages.join(" ") }));
          await fail(problems.length > 0 ? problems.map((p) => `${p.column}: ${p.reason}`).join("; ") : failure.message, { problems });
          break;
        }
        case "refused":
          await fail(failure.message, { unavailable: failure.unavailable });
          break;
        case "lost":
          if (failure.answered !== undefined) ledger.markAnswered([job.key], this.o.clock.now(), failure.answered);
          this.lost.push(job);
          outcomes.set(job.row, { status: "unknown", ...base, error: `answer lost (${failure.message})`, cause: error });
          break;
        case "stop":
          this.stopped ??= failure.error;
          if (failure.lost) this.lost.push(job);
          else ledger.note([[job.key, { state: "failed", error: String((failure.error as Error).message) }]]);
          outcomes.set(job.row, { status: failure.lost ? "unknown" : "pending", ...base, cause: error });
          break;
      }
    } finally {
      this.o.onSettled?.();
    }
  }
}
