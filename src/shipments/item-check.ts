// Every item checked before anything is sent, with the check `shipment update` applies to its one shipment
// (src/input/shipment-check.ts), in its two steps: first, for every item, everything that needs no table, so that
// typos are reported without touching the network; then, for the items that passed, the table look-ups. Here a
// failed look-up is a problem of its item (the others go on), and a gallery's own inline address repeated on 200
// items is worked out once.
import { ADDRESS_SIDES, addressKey, type Shipment } from "../contract/index.js";
import type { Deps } from "../deps.js";
import { withoutEmptyLine2 } from "../input/address-input.js";
import { resolveAddressValues, type LocalAddress, type ResolvedAddress } from "../input/address-values.js";
import { lookupProblem, resolveServiceInput, serviceNameProblem } from "../input/table-values.js";
import type { FieldProblem } from "../input/problems.js";
import { sameAddressProblem } from "../input/same-sides.js";
import { checkShipmentLocally, resolveShipment, type LocalShipment } from "../input/shipment-check.js";
import type { ItemSource, RawItem } from "./item-input.js";
import type { InlineAddress } from "./shipment-row.js";

export interface ValidItem {
  ok: true;
  item: number;
  reference?: string;
  label: string;
  payload: Shipment;
  addresses: InlineAddress[];
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

/** An item after the first step: what the shared check kept for the table look-ups. */
interface Local {
  item: RawItem;
  local: LocalShipment;
}

export function labelOf(raw: Record<string, unknown>): string {
  return typeof raw.title === "string" ? raw.title : "";
}

/**
 * Checks every item. `stopAfterLocal`: when some item fails the first step, the table look-ups are skipped (nothing
 * at all touches the network while the input has typos) and the items that passed it are returned unresolved as
 * undefined; the caller reports the failures and stops.
 */
export async function checkItems(deps: Deps, source: ItemSource, items: readonly RawItem[], options: { stopAfterLocal: boolean }): Promise<Array<CheckedItem | undefined>> {
  const locals: Array<Local | InvalidItem> = [];
  for (const item of items) locals.push(await checkLocally(deps, item));
  if (options.stopAfterLocal && locals.some((l) => "ok" in l)) return locals.map((l) => ("ok" in l ? l : undefined));

  const resolve = addressResolver(deps, source);
  const out: CheckedItem[] = [];
  for (const l of locals) out.push("ok" in l ? l : await resolveItem(deps, l, resolve));
  return out;
}

async function checkLocally(deps: Deps, item: RawItem): Promise<Local | InvalidItem> {
  const { raw } = item;
  const bad = (problems: FieldProblem[]): InvalidItem => ({ ok: false, item: item.item, reference: item.reference, label: labelOf(raw), problems });
  if (item.problems.some((p) => p.field === "(item)")) return bad(item.problems);
  const local = await checkShipmentLocally(raw);
  const all = [...item.problems, ...local.problems];
  if (all.length === 0) return { item, local };
  // The item fails anyway: its service name is checked now too, so the one report lists an unknown --service.
  const service = local.serviceText === undefined ? undefined : await serviceNameProblem(deps, local.serviceText);
  return bad(service ? [...all, service] : all);
}

type AddressResolver = (local: LocalAddress, key: string, item: number) => Promise<ResolvedAddress>;

async function resolveItem(deps: Deps, { item, local }: Local, resolve: AddressResolver): Promise<CheckedItem> {
  const { payload: checked, problems } = await resolveShipment(local, {
    service: (text) => resolveServiceInput(deps, text, "service"),
    address: (side, address) => resolve(address, `${side}_address`, item.item),
    lookupProblem,
  });
  const base = { item: item.item, reference: item.reference, label: labelOf(item.raw) };
  if (checked === undefined) return { ok: false, ...base, problems };
  const same = sameAddressProblem(checked, "json");
  if (same) return { ok: false, ...base, problems: [same] };
  const payload: Shipment = { ...checked };
  const addresses: InlineAddress[] = [];
  for (const side of ADDRESS_SIDES) {
    const inline = payload[`${side}_address`];
    if (!inline) continue;
    // Without an empty or null line_2, as `address add` sends it.
    const address = (payload[`${side}_address`] = withoutEmptyLine2(inline));
    addresses.push({ side, key: addressKey(address), address });
  }
  return { ok: true, ...base, payload, addresses };
}

/** Inline addresses resolved once per distinct spelling: one note on stderr and one table look-up for 200 items. */
function addressResolver(deps: Deps, source: ItemSource): AddressResolver {
  const done = new Map<string, ResolvedAddress>();
  // Problems name the address's own fields (`phone`); the shared check prefixes the side.
  return async (local, key, item) => {
    const cacheKey = JSON.stringify([local.candidate, local.countryText ?? null, local.phoneText ?? null]);
    let known = done.get(cacheKey);
    if (!known) {
      // Names the first place the address appears, for the notes on stderr when its phone or post code is normalised.
      const at = (field: string) => (source.list ? `"${key}.${field}" of item ${item}` : `"${key}.${field}" in ${source.name}`);
      try {
        // Look-up failures name the field; the caller prefixes the side and the item.
        known = await resolveAddressValues(deps, local, { country: "country", phone: at("phone"), postCode: at("post_code") });
      } catch (e) {
        // The country could not be looked up: the phone (which may need it) is not read either.
        known = { values: local.candidate, problems: [lookupProblem(e, "country")] };
      }
      done.set(cacheKey, known);
    }
    return known;
  };
}
