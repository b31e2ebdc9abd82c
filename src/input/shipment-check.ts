// The check of one shipment before it is sent, shared by `shipment update ID` (flags or a JSON file) and the items of
// `shipment create --file` / a JSON list: the contract's Shipment schema; service as the integer or a name from the
// profile's table; inline addresses tidied, countries as codes or names, phones read into E.164. It runs in two
// steps, so that typos are reported without touching the network: first everything that needs no table, with valid
// placeholders standing in for service names, country names and national phone numbers; then the table look-ups.
import { ADDRESS_SIDES, Shipment, type AddressSide } from "../contract/index.js";
import { tidyAddress } from "./address-input.js";
import { deferredFields, localAddress, localPhoneProblem, type LocalAddress, type ResolvedAddress } from "./address-values.js";
import { rawEnumValue } from "./table-values.js";
import { problemsFrom, type FieldProblem } from "./problems.js";

const PLACEHOLDER_SERVICE = 1;

/** A shipment after the first step: the candidate with placeholders, what waits for the tables, and the problems. */
export interface LocalShipment {
  candidate: Record<string, unknown>;
  /** The service as written, when it is a name (looked up in the second step). */
  serviceText?: string;
  inline: Map<AddressSide, LocalAddress>;
  /** Problems that need no table; `field` is the JSON path (`fulfillment_address.phone`). */
  problems: FieldProblem[];
}

/** The first step: no network, no tables. */
export async function checkShipmentLocally(raw: Record<string, unknown>): Promise<LocalShipment> {
  const candidate: Record<string, unknown> = { ...raw };
  const waiting: string[] = [];
  const local: LocalShipment = { candidate, inline: new Map(), problems: [] };
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
  if (!first.success) {
    const problems = withSideProblems(problemsFrom(first.error, candidate), candidate).filter((p) => !waiting.includes(p.field));
    // A national phone number may still read once the country is known: it is reported now only beside other problems.
    if (problems.length > 0) local.problems = [...problems, ...phoneProblems];
  }
  return local;
}

/** The second step's look-ups, which the caller words (where the value came from) and may remember. */
export interface ShipmentLookups {
  /** The service's id for a name. */
  service(text: string): Promise<number>;
  /** The address with its country and phone read; problems name the address's own fields (`phone`). */
  address(side: AddressSide, local: LocalAddress): Promise<ResolvedAddress>;
  /** A service look-up that failed, as a problem of the field; without it the failure is thrown. */
  lookupProblem?(error: unknown, field: string): FieldProblem;
}

/** The second step: the look-ups, then the schema on the resolved shipment. `payload` only when there is no problem. */
export async function resolveShipment(local: LocalShipment, lookups: ShipmentLookups): Promise<{ payload?: Shipment; problems: FieldProblem[] }> {
  const resolved: Record<string, unknown> = { ...local.candidate };
  const problems: FieldProblem[] = [];
  if (local.serviceText !== undefined) {
    try {
      resolved.service = await lookups.service(local.serviceText);
    } catch (e) {
      if (!lookups.lookupProblem) throw e;
      problems.push(lookups.lookupProblem(e, "service"));
    }
  }
  for (const [side, address] of local.inline) {
    const key = `${side}_address`;
    const r = await lookups.address(side, address);
    resolved[key] = r.values;
    problems.push(...r.problems.map((p) => ({ field: `${key}.${p.field}`, message: p.message })));
  }
  const checked = Shipment.safeParse(resolved);
  if (!checked.success) problems.push(...problemsFrom(checked.error, resolved).filter((p) => !problems.some((u) => u.field === p.field)));
  return problems.length > 0 || !checked.success ? { problems } : { payload: checked.data, problems };
}

/**
 * zod runs the schema's one-of rule for the address sides only once every other field is valid; a person fixing a
 * shipment wants to hear about a missing side in the same run, so the rule is applied here too when zod skipped it.
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
