// stdout shaped by --fields and --query (json-shape.ts) on its way out, whatever wrote it (printJson, a listing, a
// batch's results written a piece at a time): one JSON document is held until the command ends, since a query needs
// all of it; NDJSON is shaped a line at a time as it comes, so a stream (pages, `watch`) still flows.
import { ExitCode, messageOf, type ErrorJson } from "../errors.js";
import { isRecord } from "../contract/json.js";
import type { IO } from "./io.js";
import { ndjsonLine } from "./json.js";
import { rawText, shapeDocument, shapeItem, type JsonShape } from "./json-shape.js";

export type ShapedMode = "document" | "lines";

export interface ShapedStdout {
  /** The same IO, its stdout shaped. */
  io: IO;
  /**
   * Prints what is still held. Returns why some output could not be shaped (not JSON, or the query failed on it): that
   * output was printed as it was, so nothing the command did is lost from stdout. When the run itself succeeded
   * (`runOk`), the failure is also in the output as every failure is: the document's `error` (an object without one of
   * its own), or the stream's last line `{"error": ...}` (code query_failed, exit 1).
   */
  end(runOk?: boolean): string | undefined;
}

export function shapedStdout(io: IO, shape: JsonShape, mode: ShapedMode): ShapedStdout {
  let held = "";
  let problem: string | undefined;
  const unchanged = (text: string, why: string) => {
    problem ??= why;
    io.out(text);
  };
  const writeLine = (line: string) => {
    if (line.trim() === "") return io.out(`${line}\n`);
    const value = parsed(line);
    if (value === NOT_JSON) return unchanged(`${line}\n`, "a line printed was not JSON");
    try {
      const shaped = shapeItem(value, shape);
      if (shaped !== undefined) io.out((shape.raw ? rawText(shaped) : undefined) ?? ndjsonLine(shaped));
    } catch (e) {
      unchanged(`${line}\n`, queryFailure(e));
    }
  };
  const writeDocument = (text: string, runOk: boolean) => {
    const value = parsed(text);
    if (value === NOT_JSON) return unchanged(text, "the output was not one JSON document");
    try {
      const shaped = shapeDocument(value, shape) ?? null;
      io.out((shape.raw ? rawText(shaped) : undefined) ?? `${JSON.stringify(shaped, null, 2)}\n`);
    } catch (e) {
      const why = queryFailure(e);
      const bare = isRecord(value) && !("error" in value);
      if (!(runOk && bare)) return unchanged(text, why);
      problem ??= why;
      io.out(`${JSON.stringify({ ...value, error: queryFailedJson(why) }, null, 2)}\n`);
    }
  };
  const out = (text: string) => {
    held += text;
    if (mode !== "lines") return;
    for (let end = held.indexOf("\n"); end !== -1; end = held.indexOf("\n")) {
      const line = held.slice(0, end);
      held = held.slice(end + 1);
      writeLine(line);
    }
  };
  // Object.create keeps io's getters (stdin, isTTY) lazy, as watchStdout does.
  const shaped = Object.create(io, { out: { value: out } }) as IO;
  return {
    io: shaped,
    end(runOk = false) {
      const rest = held;
      held = "";
      if (mode === "document") {
        if (rest !== "") writeDocument(rest, runOk);
        return problem;
      }
      if (rest !== "") writeLine(rest);
      if (problem && runOk) io.out(ndjsonLine({ error: queryFailedJson(problem) }));
      return problem;
    },
  };
}

const NOT_JSON = Symbol("not JSON");

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

/** The failure of a query on output a run printed: the run did its work, so not a usage error (which says nothing was sent). */
function queryFailedJson(why: string): ErrorJson {
  return { code: "query_failed", exit_code: ExitCode.Failure, message: `--query could not be applied (the output is printed as it was): ${why}`, hint: "Check the expression against the output without --query (shipctl help formatting)." };
}

function queryFailure(e: unknown): string {
  return `the query failed on it: ${messageOf(e)}`;
}
