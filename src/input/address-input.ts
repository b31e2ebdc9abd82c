// One address from flags, a JSON file or stdin: merged (flags win over the file), normalised where that is safe and
// visible, and checked against the contract's Address schema before anything is sent.
import { Address } from "../contract/index.js";
import type { Deps } from "../deps.js";
import { UsageError } from "../errors.js";
import { ADDRESS_FIELD_FLAGS, addressFlagFor, type AddressFlags } from "./address-fields.js";
import { deferredFields, localAddress, localPhoneProblem, resolveAddressValues } from "./address-values.js";
import { expectObject, readJsonInput } from "./json-file.js";
import { invalidInput, problemsFrom, type FieldProblem } from "./problems.js";

/** Keys of a stored address (`shipctl address get ID --json`) that are not part of a request: dropped on input. */
const READ_ONLY_KEYS: readonly string[] = ["id", "created_at", "updated_at"];

/**
 * `targetId`, for `address update ID`: a file holding another address's id is refused rather than silently
 * retargeted.
 */
export async function readAddressInput(deps: Deps, flags: AddressFlags, targetId?: number): Promise<Address> {
  const fileLabel = flags.file === "-" ? "stdin" : flags.file;
  const subject = fileLabel === undefined ? "The address" : `The address (flags and ${fileLabel})`;
  const hint = `Give each field with its flag (${ADDRESS_FIELD_FLAGS.map((f) => f.flag).join(" ")}) or in --file FILE.json.`;
  const fail = (problems: FieldProblem[]) => invalidInput({ subject, problems, flagFor: addressFlagFor, hint });

  const raw = await gather(deps, flags, targetId);
  // Everything that needs no table is checked first, so a typo is reported without touching the network.
  const local = localAddress(raw);
  const waiting = deferredFields(local);
  const first = Address.safeParse(local.candidate);
  if (!first.success) {
    const problems = problemsFrom(first.error, local.candidate).filter((p) => !waiting.includes(p.field));
    const phone = await localPhoneProblem(local);
    if (problems.length > 0) throw fail(phone ? [...problems, phone] : problems);
  }
  const inFile = (field: string) => (fileLabel === undefined ? "" : ` (or "${field}" in ${fileLabel})`);
  const resolved = await resolveAddressValues(deps, local, {
    country: `--country${inFile("country")}`,
    phone: `--phone${inFile("phone")}`,
    postCode: `--post-code${inFile("post_code")}`,
  });
  const checked = Address.safeParse(resolved.values);
  const unreadable = resolved.problems.map((p) => p.field);
  const problems = [
    ...resolved.problems,
    ...(checked.success ? [] : problemsFrom(checked.error, resolved.values).filter((p) => !unreadable.includes(p.field))),
  ];
  if (problems.length > 0 || !checked.success) throw fail(problems);
  return withoutEmptyLine2(checked.data);
}

async function gather(deps: Deps, flags: AddressFlags, targetId: number | undefined): Promise<Record<string, unknown>> {
  const raw: Record<string, unknown> = {};
  if (flags.file !== undefined) {
    const input = await readJsonInput(deps, flags.file);
    const fromFile = expectObject(input, "address");
    const fileId = fromFile.id;
    // A blank id (a template filled from an unset variable) names no address: say so, not "holds address ,".
    if (targetId !== undefined && typeof fileId === "string" && fileId.trim() === "") {
      const hint = `Remove "id" from the file, or set it to ${targetId}.`;
      throw new UsageError(`${input.label}: "id" is blank`, { hint });
    }
    // Compared as written: a hand-edited "id": "12" names address 12 as 12 does.
    const sameId = String(fileId).trim() === String(targetId);
    if (targetId !== undefined && fileId !== undefined && fileId !== null && !sameId) {
      throw new UsageError(`${input.label} holds address ${String(fileId)}, but the command updates address ${targetId}`, {
        hint: `Remove "id" from the file, or update address ${String(fileId)} instead.`,
      });
    }
    for (const [key, value] of Object.entries(fromFile)) if (!READ_ONLY_KEYS.includes(key)) raw[key] = value;
  }
  for (const f of ADDRESS_FIELD_FLAGS) {
    const value = flags[f.key];
    if (value !== undefined) raw[f.field] = value;
  }
  if (Object.keys(raw).length === 0) {
    throw new UsageError("no address given", {
      hint: "Give it with flags (--name --email --phone --line-1 --city --region --post-code --country) or --file FILE.json (- for stdin).",
    });
  }
  return tidyAddress(raw);
}

/** Trims text fields and drops an empty line_2: the service reads "" as absent (its framework turns it into null). */
export function tidyAddress(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) out[key] = typeof value === "string" ? value.trim() : value;
  if (out.line_2 === "" || out.line_2 === null) delete out.line_2;
  return out;
}

/** The service reads an empty or null line_2 as absent: the request leaves it out. */
export function withoutEmptyLine2(address: Address): Address {
  if (address.line_2 !== null && address.line_2 !== undefined) return address;
  const { line_2: _line2, ...rest } = address;
  return rest;
}
