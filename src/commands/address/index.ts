// Wiring of `shipctl address verify|add|update|get`: flags and help only, one registration function per verb; each
// verb's logic sits in a sibling file imported when the command runs.
import type { Command } from "commander";
import { lazyAction, type CommandContext } from "../action.js";
import { ADDRESS_FIELD_FLAGS } from "../../input/address-fields.js";
import { CSV_HELP, CSV_VERIFY_HELP, addCsvOptions, csvOrPlain } from "../csv-wiring.js";

/** The verbs of `shipctl address` (the noun itself is declared in ../index.ts). */
export function registerVerbs(address: Command, ctx: CommandContext): void {
  address.addHelpText("after", "\nRun `shipctl address <command> --help` for the flags and examples of each.\n");
  registerVerify(address, ctx);
  registerAdd(address, ctx);
  registerUpdate(address, ctx);
  registerGet(address, ctx);
}

/** The address input flags shared by verify, add and update. */
export function addressInputOptions(command: Command): Command {
  command.option("--file <path>", "read the address from a JSON file (- for stdin); flags given as well override its fields");
  for (const f of ADDRESS_FIELD_FLAGS) command.option(`${f.flag} <text>`, f.help);
  return command;
}

/** Flags deciding what add and update store after verification. */
function storePolicyOptions(command: Command): Command {
  return command
    .option("--no-verify", "store without asking the service to verify the address first")
    .option("--accept-recommended", "when the service recommends a revised address, store the revision without asking");
}

const INPUT_HELP = `
The address comes from the flags, from --file FILE.json, or from --file - (stdin). With a file and flags together,
each flag overrides that field of the file. The JSON holds the fields name, email, phone, line_1, line_2 (optional),
city, region, post_code and country; the output of \`shipctl address get ID --json\` works as input (id and
timestamps are ignored). Country is the integer value, or an ISO code or English name when the profile has a country
table. A phone not in E.164 is read as a national number of the country, and the change is shown on stderr.
Every field is checked locally first: a bad field is exit 2 and nothing is sent.`;

export function registerVerify(address: Command, ctx: CommandContext): Command {
  const command = address
    .command("verify")
    .description("ask the service whether an address is valid; show its recommended revision, if any")
    .addHelpText(
      "after",
      `${INPUT_HELP}

Exit codes: 0 valid; 6 invalid or a revision is recommended (the verdict is still printed, as JSON with --json);
2 bad input (nothing sent); 7 the service's verifier stayed rate limited after retries.

Examples:
  shipctl address verify --name "Gallery North" --email ship@gallery.example --phone "+12069536978" \\
    --line-1 "1 Main Street" --city Seattle --region WA --post-code 98101 --country US
  shipctl address verify --file gallery.json --json
  cat gallery.json | shipctl address verify --file - --post-code 98102
`,
    );
  addressInputOptions(command);
  addCsvOptions(command, { verifyFlags: false, sending: false }).addHelpText("after", CSV_VERIFY_HELP);
  command.action(csvOrPlain(ctx, async () => (await import("./csv.js")).runVerify, async () => (await import("./verify.js")).run));
  return command;
}

export function registerAdd(address: Command, ctx: CommandContext): Command {
  const command = address
    .command("add")
    .description("verify an address, then store it; prints the new address id")
    .addHelpText(
      "after",
      `${INPUT_HELP}

The address is verified first (unless --no-verify). A revision the service recommends is stored only with
--accept-recommended or after a yes at the prompt; without a terminal and without the flag, the command stops with
exit 6 and shows the revision. An invalid address is not stored (exit 6).

Output: the new id on stdout; with --json {"id": 12, "address": {...as stored}}.

Stored once: each address is recorded before it is sent, in a journal of its own in the config folder
(journals/address-add-<hash>.shipctl-ledger.jsonl). Running the same command again prints the id stored by the
earlier run (exit 0) and stores nothing; --force-new stores the same address once more.
The store request is never sent twice. If its answer is lost, the stored addresses are read back 2 s later: found,
the id is printed as usual (exit 0); not found yet, exit 7: the request is "in flight", since the service may still
be storing it until its settle time (printed; the longest the service may take, 5 minutes by default). Running the
command again settles it: found, its id; not stored by then, it is stored. Before the settle time the rerun waits,
with a countdown, reading the addresses back now and then; --no-wait makes it stop at once (exit 7) instead.

Examples:
  shipctl address add --file gallery.json
  shipctl address add --file gallery.json --accept-recommended --json
  id=$(shipctl address add --file gallery.json --no-input)
`,
    );
  addressInputOptions(command);
  storePolicyOptions(command);
  addCsvOptions(command, { verifyFlags: false, sending: true, creates: true, singleJournal: "address" }).addHelpText("after", CSV_HELP);
  command.action(csvOrPlain(ctx, async () => (await import("./csv.js")).runAdd, async () => (await import("./add.js")).run));
  return command;
}

export function registerUpdate(address: Command, ctx: CommandContext): Command {
  const command = address
    .command("update")
    .argument("<id>", "id of the stored address")
    .description("verify an address, then replace a stored address with it (every field is sent)")
    .addHelpText(
      "after",
      `${INPUT_HELP}

The service replaces the whole address, so every required field must be given: the usual way is to edit the output
of \`address get\`. Verification works as for \`address add\`.

Output: nothing on stdout; with --json {"id": 12, "address": {...as stored}}.

Examples:
  shipctl address get 12 --json > a.json && $EDITOR a.json && shipctl address update 12 --file a.json
  shipctl address update 12 --file a.json --phone "+12069536978" --accept-recommended
`,
    );
  addressInputOptions(command);
  storePolicyOptions(command);
  command.action(lazyAction(ctx, async () => (await import("./update.js")).run));
  return command;
}

export function registerGet(address: Command, ctx: CommandContext): Command {
  const command = address
    .command("get")
    .argument("<id>", "id of the stored address")
    .description("show a stored address")
    .addHelpText(
      "after",
      `
Output: a table of the fields; with --json the service's record (id, the address fields, created_at, updated_at).
Exit 6 when there is no address with that id.

Examples:
  shipctl address get 12
  shipctl address get 12 --json | jq -r .email
`,
    );
  command.action(lazyAction(ctx, async () => (await import("./get.js")).run));
  return command;
}
