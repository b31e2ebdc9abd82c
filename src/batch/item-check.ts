// Every item checked before anything is sent, with the rules `shipment update` applies to its one shipment
// (src/input): the contract's Shipment schema; service as the integer or a name from the profile's table; inline
// addresses tidied, countries as codes or names, phones read into E.164 (each change said on stderr). As there, the
// check runs in two steps, so that typos are reported without touching the network: first everything that needs
// no table, with valid placeholders standing in for names and national phone numbers; then, for the items that
// passed, the table look-ups. A gallery's own inline address repeated on 200 items is worked out once.
import { ADDRESS_SIDES, Shipment, type Address, type AddressSide } from "../contract/index.js";
import type { Deps } from "../deps.js";
import { CliError } from "../errors.js";
import { tidyAddress } from "../input/address-input.js";
import { deferredFields, localAddress, localPhoneProblem, resolveAddressValues, type LocalAddress } from "../input/address-values.js";
import { rawEnumValue, resolveServiceInput } from "../input/enums.js";
import { problemsFrom, type FieldProblem } from "../input/problems.js";
import type { ItemSource, RawItem } from "./item-input.js";
import { reasonText } from "./types.js";

const PLACEHOLDER_SERVICE = 1;

export interface InlineItemAddress {
  side: AddressSide;
  /** The normalised address as canonical JSON: equal addresses, equal keys (verified once, journalled by it). */
  key: string;
  address: Address;
}

export interface ValidItem {
  ok: true;
  item: number;
  reference?: string;
  label: string;
  payload: Shipment;
  addresses: InlineItemAddress[];
}

export interface InvalidItem {
  ok: false;
  item: number;
  reference?: string;
  label: string;
  /** `field` is the JSON path in the shipment (`fulfillment_address.phone`). */
  problems: FieldProblem[];
}

export type CheckedItem = ValidItem | InvalidItem;

/** An item after the first step: its candidate with placeholders, and what waits for the tables. */
interface Local {
  item: RawItem;
  candidate: Record<string, unknown>;
  serviceText?: string;
  inline: Map<AddressSide, LocalAddress>;
}

export function addressKey(a: Address): string {
  // Built in a fixed key order, so equal addresses give equal keys.
  return JSON.stringify([a.name, a.email, a.phone, a.line_1, a.line_2 ?? null, a.city, a.region, a.post_code, a.country]);
}

function labelOf(raw: Record<string, unknown>): string {
  return typeof raw.title === "string" ? raw.title : "";
}

/**
 * Checks every item. `stopAfterLocal`: when some item fails the first step, the table look-ups are skipped (nothing
 * at all touches the network while the input has typos) and the items that passed it are returned unresolved as
 * undefined; the caller reports the failures and stops.
 */
export async function checkItems(deps: Deps, source: ItemSource, items: readonly RawItem[], options: { stopAfterLocal: boolean }): Promise<Array<CheckedItem | undefined>> {
  const locals: Array<Local | InvalidItem> = [];
  for (const item of items) locals.push(await checkLocally(item));
  if (options.stopAfterLocal && locals.some((l) => "ok" in l)) return locals.map((l) => ("ok" in l ? l : undefined));

  const resolver = new AddressResolver(deps, source);
  const out: CheckedItem[] = [];
  for (const l of locals) out.push("ok" in l ? l : await resolveItem(deps, source, l, resolver));
  return out;
}

async function checkLocally(item: RawItem): Promise<Local | InvalidItem> {
  const { raw } = item;
  const bad = (problems: FieldProblem[]): InvalidItem => ({ ok: false, item: item.item, reference: item.reference, label: labelOf(raw), problems });
  if (item.problems.some((p) => p.field === "(item)")) return bad(item.problems);

  const candidate: Record<string, unknown> = { ...raw };
  const waiting: string[] = [];
  const local: Local = { item, candidate, inline: new Map() };
  const service = rawEnumValue(raw.service);
  if (service !== undefined) candidate.service = service;
  else if (typeof raw.service === "string" && raw.service.trim() !== "") {
    local.serviceText = raw.service.trim();
    candidate.service = PLACEHOLDER_SERVICE;
    waiting.push("service");
  }
  const phoneProblems: FieldProblem[] = [];
  for (const side of ADDRESS_SIDES) {
    const key = `${side}_address`;
    const value = raw[key];
    if (value === null || typeof value !== "object" || Array.isArray(value)) continue;
    const address = localAddress(tidyAddress(value as Record<string, unknown>));
    local.inline.set(side, address);
    candidate[key] = address.candidate;
    waiting.push(...deferredFields(address).map((f) => `${key}.${f}`));
    const phone = await localPhoneProblem(address);
    if (phone) phoneProblems.push({ field: `${key}.${phone.field}`, message: phone.message });
  }
  const first = Shipment.safeParse(candidate);
  const problems = first.success ? [] : withSideProblems(problemsFrom(first.error, candidate), candidate).filter((p) => !waiting.includes(p.field));
  const all = [...item.problems, ...problems, ...(problems.length > 0 ? phoneProblems : [])];
  return all.length > 0 ? bad(all) : local;
}

async function resolveItem(deps: Deps, source: ItemSource, local: Local, resolver: AddressResolver): Promise<CheckedItem> {
  const { item } = local;
  const resolved: Record<string, unknown> = { ...local.candidate };
  const problems: FieldProblem[] = [];
  if (local.serviceText !== undefined) {
    try {
      resolved.service = (await resolveServiceInput(deps, local.serviceText, "service")).id;
    } catch (e) {
      problems.push(lookupProblem(e, "service"));
    }
  }
  for (const [side, address] of local.inline) {
    const key = `${side}_address`;
    const r = await resolver.resolve(address, key, item.item);
    resolved[key] = r.values;
    problems.push(...r.problems);
  }
  const checked = Shipment.safeParse(resolved);
  if (!checked.success) problems.push(...problemsFrom(checked.error, resolved).filter((p) => !problems.some((u) => u.field === p.field)));
  const base = { item: item.item, reference: item.reference, label: labelOf(item.raw) };
  if (problems.length > 0 || !checked.success) return { ok: false, ...base, problems };
  const payload = withoutEmptyLine2(checked.data);
  const addresses: InlineItemAddress[] = [];
  for (const side of ADDRESS_SIDES) {
    const address = payload[`${side}_address`];
    if (address) addresses.push({ side, key: addressKey(address), address });
  }
  return { ok: true, ...base, payload, addresses };
}

/** A table look-up that failed (an unknown name, no confirmed table) as a problem of the field, its hint kept. */
function lookupProblem(e: unknown, field: string): FieldProblem {
  if (!(e instanceof CliError)) throw e;
  const reason = reasonText({ column: field, reason: e.message });
  return { field, message: e.hint ? `${reason} (${e.hint})` : reason };
}

/** Inline addresses resolved once per distinct spelling: one note on stderr and one table look-up for 200 items. */
class AddressResolver {
  private readonly done = new Map<string, { values: Record<string, unknown>; problems: FieldProblem[] }>();

  constructor(
    private readonly deps: Deps,
    private readonly source: ItemSource,
  ) {}

  async resolve(local: LocalAddress, key: string, item: number): Promise<{ values: Record<string, unknown>; problems: FieldProblem[] }> {
    const cacheKey = JSON.stringify([local.candidate, local.countryText ?? null, local.phoneText ?? null]);
    let known = this.done.get(cacheKey);
    if (!known) {
      known = await this.resolveOnce(local, key, item);
      this.done.set(cacheKey, known);
    }
    return { values: known.values, problems: known.problems.map((p) => ({ field: `${key}.${p.field}`, message: p.message })) };
  }

  private async resolveOnce(local: LocalAddress, key: string, item: number) {
    // Names the first place the address appears, for the note on stderr when its phone is read into E.164.
    const phone = this.source.list ? `"${key}.phone" of item ${item}` : `"${key}.phone" in ${this.source.name}`;
    try {
      // Look-up failures name the field; the caller prefixes the side and the item.
      const r = await resolveAddressValues(this.deps, local, { country: "country", phone });
      return { values: r.values, problems: r.problems };
    } catch (e) {
      // The country could not be looked up: the phone (which may need it) is not read either.
      return { values: local.candidate, problems: [lookupProblem(e, "country")] };
    }
  }
}

/**
 * zod runs the schema's one-of rule for the address sides only once every other field is valid; a person fixing an
 * item wants to hear about a missing side in the same run, so the rule is applied here too when zod skipped it.
 */
function withSideProblems(problems: FieldProblem[], candidate: Record<string, unknown>): FieldProblem[] {
  const out = [...problems];
  for (const side of ADDRESS_SIDES) {
    const idKey = `${side}_address_id`;
    const inlineKey = `${side}_address`;
    if (out.some((p) => p.field === idKey || p.field === inlineKey || p.field.startsWith(`${inlineKey}.`))) continue;
    const hasId = candidate[idKey] !== undefined;
    const hasInline = candidate[inlineKey] !== undefined;
    if (!hasId && !hasInline) out.push({ field: idKey, message: `${idKey} or ${inlineKey} is required` });
    if (hasId && hasInline) out.push({ field: inlineKey, message: `give either ${idKey} or ${inlineKey}, not both` });
  }
  return out;
}

/** The service reads an empty or null line_2 as absent; the request leaves it out (as `address add` does). */
function withoutEmptyLine2(s: Shipment): Shipment {
  const out: Shipment = { ...s };
  for (const side of ADDRESS_SIDES) {
    const a = out[`${side}_address`];
    if (a && (a.line_2 === null || a.line_2 === undefined)) {
      const { line_2: _line2, ...rest } = a;
      out[`${side}_address`] = rest;
    }
  }
  return out;
}
