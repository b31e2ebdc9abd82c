// The shipments of `shipctl shipment create` without --csv: from flags, from --file FILE.json, or from --file - (stdin).
// The file holds one shipment (an object), a list of them, or the request body itself ({"shipments": [...]}).
// Flags given with a file override those fields of every item (so `--fulfillment-address-id 12` sends a whole list
// from the gallery's stored address), and an id flag replaces the inline address of its side, as for `shipment
// update`. An item may carry a "reference" (never sent): like the CSV's reference column, it identifies the item
// in the ledger, so an item edited after it was created is still that item and not a new shipment.
import { resolve } from "node:path";
import type { Deps } from "../deps.js";
import { UsageError } from "../errors.js";
import { isRecord } from "../contract/json.js";
import { charLength, MAX_REFERENCE_LENGTH } from "../contract/limits.js";
import { readJsonInput } from "../input/json-file.js";
import { shipmentFlagValues, type ShipmentFlags } from "../input/shipment-fields.js";

export type ItemInputFlags = ShipmentFlags & { reference?: string };

export interface ItemSource {
  /** How messages name the input: "shipments.json", "stdin" or "the flags". */
  name: string;
  /** Absolute path of the JSON file (its ledger lives beside it); undefined for flags alone and for stdin. */
  path?: string;
  /** The file held a list (or a request body): problems are reported item by item. One shipment is not a list. */
  list: boolean;
}

export interface RawItem {
  /** 1-based position in the list (1 for a single shipment). */
  item: number;
  /** The fields as given, flags applied; "reference" taken out. */
  raw: Record<string, unknown>;
  reference?: string;
  /** Why the item cannot be read at all (not an object) or its reference is unusable. */
  problems: Array<{ field: string; message: string }>;
}

export interface ItemInput {
  source: ItemSource;
  items: RawItem[];
}

const NO_INPUT_HINT =
  "Give every field with flags (--title --value --length --height --depth --service --fulfillment-address-id " +
  "--destination-address-id) or --file FILE.json (- for stdin) holding one shipment or a list of them.";

export async function readItems(deps: Deps, flags: ItemInputFlags): Promise<ItemInput> {
  const overrides = shipmentFlagValues(flags);
  // A blank --reference is none, as a blank "reference" in a file is: as a key ("ref:") it would make every
  // shipment given with one the first.
  const reference = flags.reference?.trim() || undefined;
  if (flags.file === undefined) {
    if (Object.keys(overrides).length === 0 && reference === undefined) throw new UsageError("no shipment given", { hint: NO_INPUT_HINT });
    const item = readItem(1, {}, overrides);
    if (reference !== undefined) setReference(item, reference);
    return { source: { name: "the flags", list: false }, items: [item] };
  }

  const input = await readJsonInput(deps, flags.file).catch((e: unknown) => {
    // A spreadsheet export given to --file by mistake: say which flag reads it.
    if (e instanceof UsageError && /\.(csv|tsv|txt)$/i.test(flags.file!) && /not valid JSON/.test(e.message)) {
      throw new UsageError(e.message, { hint: `--file reads JSON; for a CSV file use --csv ${flags.file}` });
    }
    throw e;
  });
  const source: ItemSource = { name: input.label, path: flags.file === "-" ? undefined : resolve(deps.cwd, flags.file), list: false };
  const entries = listOf(input.value, input.label);
  source.list = entries !== undefined;
  const values = entries ?? [input.value];
  if (values.length === 0) throw new UsageError(`${input.label} holds an empty list: there is no shipment to create`);
  if (reference !== undefined && values.length > 1) {
    throw new UsageError(`--reference names one shipment, but ${input.label} holds ${values.length}`, {
      hint: 'Give each item its own "reference" in the file instead.',
    });
  }
  if (!source.list && (input.value === null || typeof input.value !== "object")) {
    const got = input.value === null ? "null" : `a ${typeof input.value}`;
    throw new UsageError(`${input.label} must hold a shipment (a JSON object) or a list of them, but holds ${got}`);
  }
  const items = values.map((value, i) => readItem(i + 1, value, overrides));
  if (reference !== undefined) setReference(items[0]!, reference);
  markDuplicateReferences(items);
  return { source, items };
}

/** The list a JSON document holds: a list, or the request body {"shipments": [...]}; undefined for one shipment. */
function listOf(value: unknown, label: string): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (isRecord(value) && "shipments" in value && Object.keys(value).length === 1) {
    if (Array.isArray(value.shipments)) return value.shipments;
    throw new UsageError(`${label}: "shipments" must be a list of shipments`);
  }
  return undefined;
}

function readItem(item: number, value: unknown, overrides: Record<string, unknown>): RawItem {
  if (!isRecord(value)) {
    const got = Array.isArray(value) ? "a list" : value === null ? "null" : `a ${typeof value}`;
    return { item, raw: {}, problems: [{ field: "(item)", message: `must be a shipment (a JSON object), but is ${got}` }] };
  }
  const { reference, ...fields } = value;
  const raw: Record<string, unknown> = { ...fields, ...overrides };
  // An id flag names the side's address outright: an inline address for that side from the file gives way.
  if (overrides.fulfillment_address_id !== undefined) delete raw.fulfillment_address;
  if (overrides.destination_address_id !== undefined) delete raw.destination_address;
  if (typeof raw.title === "string") raw.title = raw.title.trim();
  const out: RawItem = { item, raw, problems: [] };
  if (reference !== undefined && reference !== null) {
    if (typeof reference !== "string") out.problems.push({ field: "reference", message: "reference must be text" });
    else if (reference.trim() !== "") setReference(out, reference.trim());
  }
  return out;
}

function setReference(item: RawItem, reference: string): void {
  item.reference = reference;
  if (charLength(reference) > MAX_REFERENCE_LENGTH) {
    item.problems.push({ field: "reference", message: `reference may be at most ${MAX_REFERENCE_LENGTH} characters` });
  }
}

/** A reference names one shipment: the second item to use it is invalid (as the CSV's second row would be). */
function markDuplicateReferences(items: RawItem[]): void {
  const first = new Map<string, number>();
  for (const item of items) {
    if (item.reference === undefined) continue;
    const earlier = first.get(item.reference);
    if (earlier === undefined) first.set(item.reference, item.item);
    else item.problems.push({ field: "reference", message: `reference "${item.reference}" is also on item ${earlier}; references must be unique` });
  }
}
