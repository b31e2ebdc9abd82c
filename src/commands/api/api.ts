// `shipctl api <method> <path>`: any request to the service with the saved token, like `gh api`, for what no command
// does yet. The wiring and the reading of the command line; the run (src/raw-api/) is imported when it runs.
import { Argument, Command } from "commander";
import { completesWith } from "../../completion/value-source.js";
import { ExitCode, UsageError } from "../../errors.js";
import { parseFieldArg } from "../../raw-api/api-fields.js";
import { parseHeaderArgs } from "../../raw-api/api-headers.js";
import { API_METHODS, parseHttpMethod } from "../../raw-api/api-target.js";
import type { ApiRequestOptions } from "../../raw-api/run-api.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";
import { printsJson } from "../record-output.js";

interface ApiFlags {
  field?: string[];
  rawField?: string[];
  header?: string[];
  input?: string;
  paginate?: boolean;
  slurp?: boolean;
  include?: boolean;
}

/** Each -F, -f or -H adds one (no default given to commander, which would print "(default: [])" in the help). */
const repeat = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

const HELP_AFTER = `
PATH is read under the base URL of the profile (/api/v1/shipments or api/v1/shipments); a full URL is taken only
on the base URL's origin: the token is sent there and nowhere else.

Fields: -f key=value is a string; -F key=value is typed: true, false, null and numbers become JSON values, @FILE
the file's text (@- stdin), anything else a string (02134 stays a string, 12345 is a number: use -f for a string).
Nested keys: a[b]=1 gives {"a": {"b": 1}}, a[]=1 appends to an array, a[] alone is an empty array. For a GET the
fields are the query string (a[b]=1&c[]=2); otherwise the JSON body. --input FILE (or -) sends a JSON file as the
body instead, and the fields then go to the query string.

Output: the body as the service sent it on stdout, indented when it is JSON; with --include the status line and
headers first. With --paginate (GET only) each page's "data" items, one JSON per line, following links.next to
the last page as \`list --all\` does; with --slurp one JSON array of every item.

Writes that must never happen twice are refused (exit ${ExitCode.Usage}, nothing sent), however the path is written
or the method is overridden (X-HTTP-Method-Override, _method); their commands record each request and read back
on a rerun instead:
  POST /api/v1/shipments              shipctl shipment create --file/--csv
  POST /api/v1/addresses              shipctl address add
  POST /api/v1/checkout               shipctl checkout   (charges the card)
  POST /api/v1/reports/{id}/{set}     shipctl report upload
Other writes (PATCH, POST /api/v1/addresses/verify) are sent once, and resent only when they cannot have arrived;
a GET is retried as every read is. -H cannot set Authorization, Host, Content-Length, Transfer-Encoding or Connection.

Exit codes: as every command's (shipctl help exit-codes): an error status gives its code (404: ${ExitCode.Rejected}, 401: ${ExitCode.Auth},
5xx after the retries: ${ExitCode.Unavailable}), with the service's body still on stdout and the message on stderr.

Examples:
  shipctl api GET /api/v1/shipments/7
  shipctl api GET /api/v1/shipments --paginate | jq -r .title
  shipctl api GET /api/v1/shipments -F limit=50 --paginate --slurp > shipments.json
  shipctl api PATCH /api/v1/shipments/7 --input shipment.json
  shipctl api POST /api/v1/addresses/verify --input address.json --include
  shipctl api GET /api/v1/checkout -F 'shipments[]=7' -F 'shipments[]=8'
`;

export function apiCommand(ctx: CommandContext, run: VerbRun<ApiRequestOptions> = runApi, command = new Command("api")): Command {
  command
    .description("send any request to the service with the saved token, like `gh api` (for what no command does)")
    .addArgument(completesWith(new Argument("<method>", "GET, POST, PATCH, PUT or DELETE (any case)"), API_METHODS))
    .argument("<path>", "path under the base URL, e.g. /api/v1/shipments, or a URL on the base URL")
    .option("-F, --field <key=value>", "a typed field (numbers, true, false, null, @FILE); repeat for more", repeat)
    .option("-f, --raw-field <key=value>", "a string field; repeat for more", repeat)
    .option("-H, --header <name:value>", "an extra request header; repeat for more", repeat)
    .option("--input <file>", "send this JSON file as the body ('-' for stdin); fields then go to the query string")
    .option("--paginate", "GET: follow links.next to the last page, printing each page's data items as NDJSON")
    .option("--slurp", "with --paginate: print one JSON array of every item instead")
    .option("-i, --include", "print the HTTP status line and the response headers before the body")
    .addHelpText("after", HELP_AFTER);
  // --query applies to the body (each item with --paginate); --include puts the status and headers before it.
  printsJson(command, (flags) =>
    flags.include === true ? { notJson: "--include prints the status line and headers before the body" } : flags.paginate === true && flags.slurp !== true ? "ndjson" : "json",
  );
  return command.action(verbAction(ctx, parseApi, run));
}

export function parseApi(args: string[], flags: ApiFlags): ApiRequestOptions {
  const method = parseHttpMethod(args[0] ?? "");
  const path = args[1] ?? "";
  if (path.trim() === "") throw new UsageError("the path is empty: give one such as /api/v1/shipments");
  const fields = [...(flags.rawField ?? []).map((f) => parseFieldArg(f, false)), ...(flags.field ?? []).map((f) => parseFieldArg(f, true))];
  const paginate = flags.paginate === true;
  const slurp = flags.slurp === true;
  const include = flags.include === true;
  if (paginate && method !== "GET") throw new UsageError(`--paginate follows the pages of a GET, not of a ${method}`);
  if (slurp && !paginate) throw new UsageError("--slurp gathers the items of --paginate: add --paginate");
  if (slurp && include) throw new UsageError("--slurp prints one JSON array, and --include would put headers before it: use one of them");
  const stdinReaders = (flags.input === "-" ? 1 : 0) + fields.filter((f) => f.typed && f.value === "@-").length;
  if (stdinReaders > 1) throw new UsageError("stdin can be read once: give one of --input - and -F key=@- only");
  return { method, path, fields, headers: parseHeaderArgs(flags.header ?? []), input: flags.input, paginate, slurp, include };
}

const runApi: VerbRun<ApiRequestOptions> = async (options, deps) => (await import("../../raw-api/run-api.js")).runApiRequest(options, deps);
