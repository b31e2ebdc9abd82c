// A row invalid in this file may already be created: from its fixed copy in the errors file (whose run shares this
// ledger), or before it was edited into an invalid one. When its identity says so for sure (its reference, or the
// key a results or errors file row carries), it is done: reported as already created with its id, not as a row to
// fix, and it does not stop the run. A row known only by its content or place has no such identity and stays invalid.
import type { BatchRun } from "./batch-run.js";
import type { InputLedger } from "../ledger/input-ledger.js";
import type { Validation } from "./validate-pass.js";

export function settleCreatedInvalid(run: BatchRun, ledger: InputLedger | undefined, validation: Validation): void {
  if (ledger === undefined) return;
  const done: string[] = [];
  validation.invalid = validation.invalid.filter((r) => {
    const state = r.key !== undefined ? ledger.row(r.key) : undefined;
    if (state?.state !== "created") return true;
    run.outcomes.set(r.row, { status: "skipped", label: r.label, reference: r.reference, id: state.id });
    done.push(`row ${r.row} (id ${state.id})`);
    return false;
  });
  if (done.length === 0) return;
  const rows = done.length === 1 ? "1 row is" : `${done.length} rows are`;
  run.deps.io.err(`${rows} invalid in ${run.source.name} but already created (from a fixed copy, or before an edit): ${done.join(", ")}; nothing to fix there.\n`);
}
