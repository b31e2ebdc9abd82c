// One shipment (for `shipment update ID`) from flags, a JSON file or stdin: merged (flags win over the file; an id flag
// for a side replaces an inline address of that side), then checked against the contract's Shipment schema before
// anything is sent. Inline addresses get the same treatment as `address add` (country codes, phone normalisation).
import { ADDRESS_SIDES, Shipment } from "../contract/index.js";
import type { Deps } from "../deps.js";
import { UsageError } from "../errors.js";
import { tidyAddress } from "./address-input.js";
import { deferredFields, localAddress, localPhoneProblem, resolveAddressValues, type LocalAddress } from "./address-values.js";
import { rawEnumValue, resolveServiceInput } from "./enums.js";
import { expectObject, readJsonInput } from "./json-file.js";
import { invalidInput, problemsFrom, type FieldProblem } from "./problems.js";
import { SHIPMENT_FIELD_FLAGS, shipmentFlagFor, type ShipmentFlags } from "./shipment-fields.js";

const PLACEHOLDER_SERVICE = 1;

export async function readShipmentInput(deps: Deps, flags: ShipmentFlags): Promise<Shipment> {
  const fileLabel = flags.file === "-" ? "stdin" : flags.file;
  const subject = fileLabel === undefined ? "The shipment" : `The shipment (flags and ${fileLabel})`;
  const hint =
    "The service needs every field on an update: --title --value --length --height --depth --service, and for each side " +
    "--fulfillment-address-id / --destination-address-id or an inline address in --file FILE.json.";
  const fail = (problems: FieldProblem[]) => invalidInput({ subject, problems, flagFor: shipmentFlagFor, hint });

  const raw = await gather(deps, flags);
  // First pass without the network: service names and inline countries/phones wait behind valid placeholders.
  const candidate: Record<string, unknown> = { ...raw };
  const waiting: string[] = [];
  let serviceText: string | undefined;
  const service = rawEnumValue(raw.service);
  if (service !== undefined) candidate.service = service;
  else if (typeof raw.service === "string" && raw.service.trim() !== "") {
    serviceText = raw.service.trim();
    candidate.service = PLACEHOLDER_SERVICE;
    waiting.push("service");
  }
  const inline = new Map<string, LocalAddress>();
  const phoneProblems: FieldProblem[] = [];
  for (const side of ADDRESS_SIDES) {
    const key = `${side}_address`;
    const value = raw[key];
    if (value === null || typeof value !== "object" || Array.isArray(value)) continue;
    const local = localAddress(tidyAddress(value as Record<string, unknown>));
    inline.set(key, local);
    candidate[key] = local.candidate;
    waiting.push(...deferredFields(local).map((f) => `${key}.${f}`));
    const phone = await localPhoneProblem(local);
    if (phone) phoneProblems.push({ field: `${key}.${phone.field}`, message: phone.message });
  }
  const first = Shipment.safeParse(candidate);
  if (!first.success) {
    const problems = withSideProblems(problemsFrom(first.error, candidate), candidate).filter((p) => !waiting.includes(p.field));
    if (problems.length > 0) throw fail([...problems, ...phoneProblems]);
  }

  const resolved: Record<string, unknown> = { ...candidate };
  if (serviceText !== undefined) {
    const where = `--service${fileLabel === undefined ? "" : ` (or "service" in ${fileLabel})`}`;
    resolved.service = (await resolveServiceInput(deps, serviceText, where)).id;
  }
  const unreadable: FieldProblem[] = [];
  for (const [key, local] of inline) {
    const where = (field: string) => `"${key}.${field}"${fileLabel === undefined ? "" : ` in ${fileLabel}`}`;
    const address = await resolveAddressValues(deps, local, { country: where("country"), phone: where("phone") });
    resolved[key] = address.values;
    unreadable.push(...address.problems.map((p) => ({ field: `${key}.${p.field}`, message: p.message })));
  }
  const checked = Shipment.safeParse(resolved);
  const problems = [
    ...unreadable,
    ...(checked.success ? [] : problemsFrom(checked.error, resolved).filter((p) => !unreadable.some((u) => u.field === p.field))),
  ];
  if (problems.length > 0 || !checked.success) throw fail(problems);
  return checked.data;
}

async function gather(deps: Deps, flags: ShipmentFlags): Promise<Record<string, unknown>> {
  const raw: Record<string, unknown> = {};
  if (flags.file !== undefined) {
    const input = await readJsonInput(deps.io, deps.cwd, flags.file);
    Object.assign(raw, expectObject(input, "shipment"));
  }
  for (const f of SHIPMENT_FIELD_FLAGS) {
    const text = flags[f.key];
    if (text === undefined) continue;
    raw[f.field] = f.kind === "number" ? numberOrText(text) : text.trim();
  }
  // An id flag names the side's address outright: an inline address for that side from the file gives way.
  if (flags.fulfillmentAddressId !== undefined) delete raw.fulfillment_address;
  if (flags.destinationAddressId !== undefined) delete raw.destination_address;
  if (Object.keys(raw).length === 0) {
    throw new UsageError("no shipment given", {
      hint: "Give every field with flags (--title --value --length --height --depth --service --fulfillment-address-id --destination-address-id) or --file FILE.json (- for stdin).",
    });
  }
  if (typeof raw.title === "string") raw.title = raw.title.trim();
  return raw;
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

/** Plain decimal text becomes a number (the schema then says if it is not whole or out of bounds); other text stays. */
function numberOrText(text: string): number | string {
  const t = text.trim();
  return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : t;
}
