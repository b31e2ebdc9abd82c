// --fields and --query on the command line. A command that prints records says so next to its wiring (printsRecords:
// where its document holds them, their fields, the outputs it prints them in), which gives it --fields and lists the
// fields in its --help. --query is global. verbAction asks shapeRun for every verb: both are checked before the run
// sends anything (exit 2), and the run then prints through a stdout that shapes its JSON (output/shaped-stdout.ts);
// -r/--raw-output (global, with --query) prints the query's strings without quotes.
// CSV is the listing's own: `--format csv --fields` chooses its columns there (list-records.ts).
import { Option, type Command } from "commander";
import { completesWith } from "../completion/value-source.js";
import type { Deps } from "../deps.js";
import { UsageError } from "../errors.js";

export type RecordOutput = "json" | "ndjson" | "csv";

export interface RecordSpec {
  /**
   * Keys of the one JSON document whose values are the records (an array of them, or one); none: the document itself
   * is the record. In NDJSON each line is a record.
   */
  in: readonly string[];
  /** Every field a record has: what --fields may name (a unit test keeps it equal to what the command prints). */
  fields: readonly string[];
  /** The outputs it prints records in: json (--json, --format json), ndjson (--ndjson, --format ndjson), csv. */
  outputs: readonly RecordOutput[];
}

const specs = new WeakMap<Command, RecordSpec>();

/** What a command prints, from its own flags: one JSON document, NDJSON, or not JSON (why --query cannot apply). */
export type JsonOutputOf = (flags: Record<string, unknown>) => "json" | "ndjson" | { notJson: string };

const jsonOutputs = new WeakMap<Command, JsonOutputOf>();

/**
 * Declares that `command` prints JSON by its own flags, without --json (`api`: the body; NDJSON with --paginate), so
 * --query applies to it. Other commands print JSON with --json, --ndjson or --format (outputOf).
 */
export function printsJson(command: Command, outputOf: JsonOutputOf): Command {
  jsonOutputs.set(command, outputOf);
  return command;
}

/** Declares that `command` prints records (call it after its --format/--ndjson options): adds --fields and its help. */
export function printsRecords(command: Command, spec: RecordSpec): Command {
  specs.set(command, spec);
  return command
    .addOption(
      completesWith(
        new Option("--fields <list>", `keep only these fields of each record, comma-separated, in this order (with ${flagsFor(command, spec.outputs)})`),
        { commaList: spec.fields },
      ),
    )
    .addHelpText("after", `\nFields (--fields): ${spec.fields.join(", ")}.\nMore on --fields, --query and the formats: \`shipctl help formatting\`.\n`);
}

/** What `command` declared with printsRecords, if it prints records. */
export function recordSpecOf(command: Command): RecordSpec | undefined {
  return specs.get(command);
}

/** `--format` (one of `formats`, in any case), or `--ndjson` alone; undefined when neither is given. */
export function formatFlag<F extends string>(flags: { format?: string; ndjson?: boolean }, formats: readonly F[]): F | undefined {
  if (flags.format === undefined) return flags.ndjson ? ("ndjson" as F) : undefined;
  const format = flags.format.trim().toLowerCase() as F;
  if (!formats.includes(format)) throw new UsageError(`--format must be one of ${formats.join(", ")} (got ${JSON.stringify(flags.format)})`);
  if (flags.ndjson && format !== "ndjson") throw new UsageError(`--ndjson and --format ${format} cannot be used together`);
  return format;
}

/** The format asked for with the global --json, short for --format json: --json with another format is refused. */
export function withJsonFlag<F extends string>(format: F | undefined, json: boolean, hint: string) {
  if (json && format !== undefined && format !== "json") {
    throw new UsageError(`--json and --format ${format} cannot be used together`, { hint });
  }
  return json ? "json" : format;
}

/** The names of `--fields a,b`, in order, once each. */
export function fieldList(text: string): string[] {
  return [...new Set(text.split(",").map((f) => f.trim()).filter((f) => f !== ""))];
}

export interface ShapedRun {
  /** The run's deps, printing through the shaped stdout. */
  deps: Deps;
  /**
   * Prints what the shaped stdout still holds; says why some output could not be shaped (it was printed unchanged, with
   * the failure in it when the run itself succeeded: `runOk`).
   */
  end(runOk?: boolean): string | undefined;
}

/**
 * The deps a run prints through when --fields or --query was given (undefined otherwise: stdout as it is), after
 * checking both against the command and its output: exit 2 before anything is sent.
 */
export async function shapeRun(command: Command, deps: Deps): Promise<ShapedRun | undefined> {
  // From commander, as parsed: --query is the program's (a global flag), --fields the command's.
  const { fields: fieldsText, query, json, rawOutput } = command.optsWithGlobals<{ fields?: string; query?: string; json?: boolean; rawOutput?: boolean }>();
  // As gh prints --jq's strings raw: -r is about what a query picks; alone it would change nothing, unnoticed.
  if (rawOutput && query === undefined) {
    throw new UsageError("-r/--raw-output prints what --query picks: add --query EXPR", { hint: "E.g. --json --query 'shipments[].title' -r (shipctl help formatting)." });
  }
  if (fieldsText === undefined && query === undefined) return undefined;
  const spec = specs.get(command);
  const own = jsonOutputs.get(command)?.(command.opts());
  if (typeof own === "object") throw new UsageError(`--query works on JSON output: ${own.notJson}`);
  const output = own ?? outputOf(command, json === true);
  const fields = fieldsText === undefined || spec === undefined ? undefined : checkFields(fieldsText, command, spec, output);
  const { queryProblem } = await import("../output/json-shape.js");
  if (query !== undefined) {
    if (output !== "json" && output !== "ndjson") {
      const jsonOutputs = (spec?.outputs ?? ["json", ...(command.options.some((o) => o.long === "--ndjson") ? ["ndjson" as const] : [])]).filter((o) => o !== "csv");
      throw new UsageError(`--query works on JSON output: add ${flagsFor(command, jsonOutputs)}`, {
        hint: output === "csv" ? "With --format csv, --fields chooses the columns." : "shipctl help formatting",
      });
    }
    const problem = queryProblem(query);
    if (problem) {
      throw new UsageError(`--query ${JSON.stringify(query)} is not a valid JMESPath expression: ${problem}`, {
        hint: "E.g. --query 'shipments[].id' or --query \"shipments[?status_name=='Draft'].{id: id, title: title}\" (shipctl help formatting).",
      });
    }
  }
  if (output === "csv") return undefined;
  const { shapedStdout } = await import("../output/shaped-stdout.js");
  const shaped = shapedStdout(deps.io, { fields, records: spec?.in, query, raw: rawOutput === true }, output === "ndjson" ? "lines" : "document");
  return { deps: { ...deps, io: shaped.io }, end: (runOk) => shaped.end(runOk) };
}

function checkFields(text: string, command: Command, spec: RecordSpec, output: string): string[] {
  if (!(spec.outputs as readonly string[]).includes(output)) {
    throw new UsageError(`--fields needs ${flagsFor(command, spec.outputs)}`, { hint: "It keeps fields of the records a command prints as data (shipctl help formatting)." });
  }
  const fields = fieldList(text);
  if (fields.length === 0) throw new UsageError("--fields needs at least one field", { hint: `${commandName(command)}: ${spec.fields.join(", ")}` });
  const unknown = fields.filter((f) => !spec.fields.includes(f));
  if (unknown.length > 0) {
    throw new UsageError(`unknown field${unknown.length === 1 ? "" : "s"} ${unknown.map((f) => JSON.stringify(f)).join(", ")} for ${commandName(command)}`, {
      hint: `Valid fields: ${spec.fields.join(", ")}.`,
    });
  }
  return fields;
}

/** The output the command line asks for: --format's value, --ndjson, --json, or "text". */
function outputOf(command: Command, json: boolean): string {
  const o = command.opts() as { format?: unknown; ndjson?: unknown };
  if (typeof o.format === "string") return o.format.trim().toLowerCase();
  if (o.ndjson === true) return "ndjson";
  return json ? "json" : "text";
}

/** "--json, --ndjson or --format json|ndjson|csv": the flags that give the command's record outputs. */
function flagsFor(command: Command, outputs: readonly RecordOutput[]): string {
  const flags = [...(outputs.includes("json") ? ["--json"] : []), ...(outputs.includes("ndjson") ? ["--ndjson"] : [])];
  if (command.options.some((o) => o.long === "--format")) flags.push(`--format ${outputs.join("|")}`);
  return flags.length > 1 ? `${flags.slice(0, -1).join(", ")} or ${flags[flags.length - 1]!}` : flags[0]!;
}

/** The words of a command under the program ("list shipments"). */
export function commandName(command: Command): string {
  const words: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) words.unshift(c.name());
  return words.join(" ");
}
