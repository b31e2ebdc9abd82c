// The flags the address verbs share: the address input (verify, add, update) with its help, and what add and update
// store after verification; and how each reads into options. Light: loaded with the wiring, for --help.
import { Option, type Command } from "commander";
import { completesWith } from "../../completion/value-source.js";
import type { StorePolicy } from "../../addresses/verification.js";
import { ADDRESS_FIELD_FLAGS } from "../../input/address-fields.js";
import type { SingleItemFlag } from "../csv-mode.js";

/** --file and one flag per field, in the order --help lists them. */
export const ADDRESS_INPUT_FLAGS: readonly SingleItemFlag[] = [{ key: "file", flag: "--file" }, ...ADDRESS_FIELD_FLAGS];

export function addressInputOptions(command: Command): Command {
  command.option("--file <path>", "read the address from a JSON file (- for stdin); flags given as well override its fields");
  for (const f of ADDRESS_FIELD_FLAGS) {
    const option = new Option(`${f.flag} <text>`, f.help);
    command.addOption(f.field === "country" ? completesWith(option, "countries") : option);
  }
  return command;
}

/** Flags deciding what add and update store after verification. */
export function storePolicyOptions(command: Command): Command {
  return command
    .option("--no-verify", "store without asking the service to verify the address first")
    .option("--accept-recommended", "when the service recommends a revised address, store the revision without asking");
}

export const INPUT_HELP = `
The address comes from the flags, from --file FILE.json, or from --file - (stdin). With a file and flags together,
each flag overrides that field of the file. The JSON holds the fields name, email, phone, line_1, line_2 (optional),
city, region, post_code and country; the output of \`shipctl address get ID --json\` works as input (id and
timestamps are ignored). Country is the integer value, or an ISO code or English name when the profile has a country
table. A phone not in E.164 is read as a national number of the country, and the change is shown on stderr.
Every field is checked locally first: a bad field is exit 2 and nothing is sent.`;

export function storePolicy(flags: { verify?: boolean; acceptRecommended?: boolean }): StorePolicy {
  return { verify: flags.verify !== false, acceptRecommended: flags.acceptRecommended === true };
}
