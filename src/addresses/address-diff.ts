// What a row's address changes in a stored one: each Address field as it will be sent (the CSV's cells already read
// as the service takes them: country ids, post codes, phones in E.164, trimmed text) against the stored value.
// Used for a stored address (`address update --csv`) and for a shipment's inline side (`shipment update --csv`).
import { ADDRESS_FIELDS, type Address, type AddressField } from "../contract/index.js";
import { sameValue, type FieldChange } from "../batch/update-plan.js";

export function addressChanges(
  sent: Address,
  stored: Partial<Record<AddressField, unknown>>,
  names: (field: AddressField) => { field: string; column: string },
): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const f of ADDRESS_FIELDS) {
    if (!sameValue(sent[f], stored[f])) changes.push({ ...names(f), from: stored[f] ?? null, to: sent[f] ?? null });
  }
  return changes;
}
