// One shipment (for `shipment update ID`) from flags, a JSON file or stdin: merged (flags win over the file; an id flag
// for a side replaces an inline address of that side), then checked against the contract's Shipment schema before
// anything is sent (shipment-check.ts). Inline addresses get the same treatment as `address add` (country codes, phone
// normalisation).
import type { Shipment } from "../contract/index.js";
import type { Deps } from "../deps.js";
import { UsageError } from "../errors.js";
import { resolveAddressValues } from "./address-values.js";
import { resolveServiceInput, serviceNameProblem } from "./table-values.js";
import { expectObject, readJsonInput } from "./json-file.js";
import { invalidInput, type FieldProblem } from "./problems.js";
import { checkShipmentLocally, resolveShipment } from "./shipment-check.js";
import { shipmentFlagFor, shipmentFlagValues, type ShipmentFlags } from "./shipment-fields.js";

export async function readShipmentInput(deps: Deps, flags: ShipmentFlags): Promise<Shipment> {
  const fileLabel = flags.file === "-" ? "stdin" : flags.file;
  const subject = fileLabel === undefined ? "The shipment" : `The shipment (flags and ${fileLabel})`;
  const hint =
    "The service needs every field on an update: --title --value --length --height --depth --service, and for each side " +
    "--fulfillment-address-id / --destination-address-id or an inline address in --file FILE.json.";
  const fail = (problems: FieldProblem[]) => invalidInput({ subject, problems, flagFor: shipmentFlagFor, hint });

  const raw = await gather(deps, flags);
  const local = await checkShipmentLocally(raw);
  if (local.problems.length > 0) {
    // The shipment fails anyway: its service name is checked now too, so the one report lists an unknown --service.
    const service = local.serviceText === undefined ? undefined : await serviceNameProblem(deps, local.serviceText);
    throw fail(service ? [...local.problems, service] : local.problems);
  }
  const where = (field: string) => (fileLabel === undefined ? "" : ` (or "${field}" in ${fileLabel})`);
  const { payload, problems } = await resolveShipment(local, {
    service: (text) => resolveServiceInput(deps, text, `--service${where("service")}`),
    address: (side, address) => {
      const at = (field: string) => `"${side}_address.${field}"${fileLabel === undefined ? "" : ` in ${fileLabel}`}`;
      return resolveAddressValues(deps, address, { country: at("country"), phone: at("phone"), postCode: at("post_code") });
    },
  });
  if (payload === undefined) throw fail(problems);
  return payload;
}

async function gather(deps: Deps, flags: ShipmentFlags): Promise<Record<string, unknown>> {
  const raw: Record<string, unknown> = {};
  if (flags.file !== undefined) {
    const input = await readJsonInput(deps, flags.file);
    Object.assign(raw, expectObject(input, "shipment"));
  }
  Object.assign(raw, shipmentFlagValues(flags));
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
