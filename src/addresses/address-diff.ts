// What a row changes in a stored record: each field as it will be sent (the CSV's cells already read as the service
// takes them: country ids, post codes, phones in E.164, trimmed text) against the stored value. Used for a stored
// address (`address update --csv`), and for a shipment's own fields and its inline sides (`shipment update --csv`).
import type { ChangedField } from "../batch/outcomes.js";
import { sameValue } from "../batch/update-plan.js";

export function fieldChanges<F extends string>(
  fields: readonly F[],
  sent: Partial<Record<F, unknown>>,
  stored: Partial<Record<F, unknown>>,
  names: (field: F) => { field: string; column: string } = (f) => ({ field: f, column: f }),
): ChangedField[] {
  return fields
    .filter((f) => !sameValue(sent[f], stored[f]))
    .map((f) => ({ ...names(f), from: stored[f] ?? null, to: sent[f] ?? null }));
}
