// The steps every write takes before sending, once its input is validated (first-pass.ts for a CSV): verify each
// distinct inline address once, and decide the address each row is sent with. Shared by create, update and address add.
import type { Address } from "../contract/index.js";
import { AddressSet, VerdictRequests, verifyAddresses, type Decision } from "./address-set.js";
import type { BatchRun } from "./batch-run.js";
import type { InputLedger } from "../ledger/input-ledger.js";
import type { CsvOptions } from "./run-options.js";
import { problemsText } from "./outcomes.js";
import type { InvalidRow } from "../csv/row-types.js";
import { InterruptedError } from "../errors.js";

/** Invalid rows as the run reports them: failed, never sent. */
export function markInvalid(run: Pick<BatchRun, "outcomes">, rows: Iterable<InvalidRow>): void {
  for (const r of rows) {
    run.outcomes.set(r.row, { status: "failed", label: r.label, reference: r.reference, error: problemsText(r.problems), problems: r.problems, invalid: true });
  }
}

/** What verifying needs of a run: a CSV run, or `shipment create` from flags or a JSON file. */
export type VerifyRun = Pick<BatchRun, "deps" | "call"> & { options: Pick<CsvOptions, "verify" | "concurrency" | "acceptRecommended"> };

/**
 * The first pass's distinct addresses, verified as they are found: the service's answers come while the rest of the
 * file is read and checked, instead of after. Verifying stores nothing, and its verdicts go to the ledger, so a
 * rerun after fixing the file does not ask again. Nothing is created before every row is valid: once a row is found
 * invalid (without --skip-invalid), no more addresses are sent for verification (`hold`), and the run stops with
 * exit 2 after the pass as it always did. What is decided from the verdicts (a prompt for a recommended revision)
 * waits for verifyDistinct, after the whole file is validated.
 */
export interface EarlyVerdicts {
  /** For `new AddressSet(...)`: starts verifying each distinct address when it is first seen. */
  onNew(key: string, address: Address): void;
  /** A row was found invalid: start no more. */
  hold(): void;
  requests: VerdictRequests;
}

export function earlyVerdicts(run: VerifyRun, ledger: InputLedger | undefined): EarlyVerdicts | undefined {
  const { deps, options } = run;
  if (!options.verify) return undefined;
  const requests = new VerdictRequests({ api: () => deps.api(), ledger, concurrency: options.concurrency, call: run.call });
  let held = false;
  return {
    requests,
    onNew: (key, address) => {
      if (!held) void requests.get(key, address);
    },
    hold: () => {
      held = true;
      requests.cancel();
    },
  };
}

export async function verifyDistinct(run: VerifyRun, ledger: InputLedger | undefined, addresses: AddressSet, early?: EarlyVerdicts): Promise<Map<string, Decision> | undefined> {
  const { deps, options } = run;
  if (!options.verify || addresses.size === 0) return undefined;
  const api = await deps.api();
  deps.io.err(`Verifying ${addresses.size} distinct address${addresses.size === 1 ? "" : "es"}...\n`);
  const verifying = verifyAddresses(addresses, {
    api,
    ledger,
    concurrency: options.concurrency,
    call: run.call,
    acceptRecommended: options.acceptRecommended,
    prompter: deps.canPrompt() ? deps.prompter : undefined,
    theme: deps.theme.err,
    alert: (t) => deps.io.alert(t),
    requests: early?.requests,
  });
  try {
    return await verifying;
  } catch (e) {
    // Ctrl-C ends the checks in flight (they store nothing) before any row is sent: say so, as the read of the file
    // does, rather than "Interrupted during POST /api/v1/addresses/verify", which reads as if something was sent.
    if (deps.signal.aborted) {
      throw new InterruptedError("interrupted while verifying addresses; nothing was sent", { cause: e });
    }
    throw e;
  }
}

export type Ready<P> = { payload: P } | { error: string; unavailable?: boolean };

/** The address a row will be sent with, or why it cannot be. */
export function decided(key: string, address: Address, decisions: Map<string, Decision> | undefined): Ready<Address> {
  const d = decisions?.get(key);
  if (!d) return { payload: address };
  if ("fail" in d) return { error: d.fail, unavailable: d.unavailable };
  return { payload: d.use };
}
