// How an input's record in the ledger is opened (input-ledger.ts), and the errors it ends with.
import { CliError, UsageError } from "../errors.js";
import type { WriteKind } from "./entry.js";
import type { Organization } from "./organization.js";
import type { SettleWindow } from "./settle-window.js";
import type { ExclusionWait } from "./store.js";

export interface OpenOptions {
  kind: WriteKind;
  /** The input whose writes these are, as entries name it: a path, "stdin", "flags", "checkout", "report upload". */
  source: string;
  target: Organization;
  window: SettleWindow;
  /**
   * A dry run's view: read as the run would read it, and nothing written (no lock taken, no snapshot);
   * what the run would record (settlements, verdicts) is kept in memory only, so the rehearsal decides as the run would.
   */
  readOnly?: boolean;
  /** Wait this long for a run holding the same input to finish, instead of refusing at once. */
  lockWait?: ExclusionWait;
  /** The run's --profile and --base-url (serviceFlags): a command the ledger prints repeats them, to reach this ledger. */
  serviceFlags?: readonly string[];
  /**
   * Forget this input's settled rows (anything not in flight) when it is opened: for writes whose outcomes no
   * later run reads (checkout: the shipment's status says whether it is paid), so the input's record does not grow.
   */
  forgetSettled?: boolean;
  /** --force-new: rows this run claims are entries of their own, whatever other inputs sent (force-new.ts). */
  forceNew?: boolean;
  /** A part of the input with a record and a hold of its own (`address add`: each address), so parts run at once. */
  part?: string;
}

export class RecordDamaged extends CliError {}

/** A claim refused: another run holds the write in flight, or another input sent it meanwhile. */
export class LedgerConflict extends UsageError {}

export function damaged(path: string, why: string): RecordDamaged {
  return new RecordDamaged(`the ledger record ${path} is damaged: ${why}`, {
    hint:
      "It records which rows were already sent, so shipctl will not guess. Check what exists with `shipctl list shipments`, " +
      "then move the record aside only if you are sure no row would be sent twice.",
  });
}

