// The shipment input flags of `shipment create` and `shipment update` (--file and one flag per field), and how they
// read into options. Light: loaded with the wiring, for --help.
import { Option, type Command } from "commander";
import { completesWith } from "../../completion/value-source.js";
import { SHIPMENT_FIELD_FLAGS } from "../../input/shipment-fields.js";
import type { SingleItemFlag } from "../csv-mode.js";

/** --file and one flag per field, in the order --help lists them. */
export const SHIPMENT_INPUT_FLAGS: readonly SingleItemFlag[] = [{ key: "file", flag: "--file" }, ...SHIPMENT_FIELD_FLAGS];

export function shipmentInputOptions(
  command: Command,
  fileHelp = "read the shipment from a JSON file (- for stdin); flags given as well override its fields",
): Command {
  command.option("--file <path>", fileHelp);
  for (const f of SHIPMENT_FIELD_FLAGS) {
    if (f.kind === "service") command.addOption(completesWith(new Option(`${f.flag} <service>`, f.help), "services"));
    else command.option(`${f.flag} <${f.kind === "text" ? "text" : "n"}>`, f.help);
  }
  return command;
}
