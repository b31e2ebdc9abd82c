// Validation errors name fields by dotted path, Laravel style: "shipments.3.value" is the `value` of the fourth
// shipment of the request. Callers map the index back to their own input (a CSV row, an item of a JSON file).

export interface FieldError {
  /** The key as the service sent it. */
  key: string;
  /** Position in the request's list (0-based), when the key starts with `<list>.N`. */
  index?: number;
  /** The field inside the item ("value", "fulfillment_address.phone"), "" for the item itself, or the whole key. */
  field: string;
  messages: string[];
}

/** Splits "shipments.3.value" into {index: 3, field: "value"}; keys outside the list keep their whole key as field. */
export function parseFieldKey(key: string, listKey = "shipments"): { index?: number; field: string } {
  const prefix = `${listKey}.`;
  if (!key.startsWith(prefix)) return { field: key };
  const rest = key.slice(prefix.length);
  const match = /^(\d+)(?:\.(.*))?$/.exec(rest);
  if (!match) return { field: key };
  return { index: Number(match[1]), field: match[2] ?? "" };
}

/** Every error of a validation body, keys split, in the order the service sent them. */
export function fieldErrors(errors: Record<string, string[]>, listKey = "shipments"): FieldError[] {
  return Object.entries(errors).map(([key, messages]) => ({ key, ...parseFieldKey(key, listKey), messages }));
}

/** The errors of one list item by index, e.g. to print them under the CSV row that item came from. */
export function fieldErrorsByIndex(errors: Record<string, string[]>, listKey = "shipments"): Map<number, FieldError[]> {
  const byIndex = new Map<number, FieldError[]>();
  for (const error of fieldErrors(errors, listKey)) {
    if (error.index === undefined) continue;
    const list = byIndex.get(error.index) ?? [];
    list.push(error);
    byIndex.set(error.index, list);
  }
  return byIndex;
}
