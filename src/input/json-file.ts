// `--file FILE.json` and `--file -` (stdin): read and parse, with errors that name the file and say how to fix it.
import { resolve } from "node:path";
import { UsageError } from "../errors.js";
import type { Deps } from "../deps.js";
import { readStdinText, readTextFile } from "../fs/input-guard.js";

export interface JsonInput {
  value: unknown;
  /** How messages name the source: the path as given, or "stdin". */
  label: string;
}

/** `signal`: Ctrl-C, which ends a read of stdin a person is typing. */
type ReadDeps = Pick<Deps, "io" | "cwd"> & { signal?: AbortSignal };

/** The JSON of `path` ('-' for stdin); `flag` names the option in messages. */
export async function readJsonInput(deps: ReadDeps, path: string, flag = "--file"): Promise<JsonInput> {
  const { io, cwd, signal } = deps;
  // Blank (an unset variable in a script) would resolve to the working folder: say what is missing instead.
  if (path.trim() === "") throw new UsageError(`${flag} needs a file name, or - for stdin`);
  const fromStdin = path === "-";
  const label = fromStdin ? "stdin" : path;
  let text: string;
  if (fromStdin) {
    if (io.stdinIsTTY) io.err("Reading JSON from stdin (finish with Ctrl-D)...\n");
    text = await readStdinText(io.stdin, { firstLine: false, signal });
  } else {
    try {
      text = await readTextFile(resolve(cwd, path), path, "a JSON file");
    } catch (e) {
      if (e instanceof UsageError) throw e;
      throw new UsageError(`cannot read ${path}: ${reasonFor(e)}`, { hint: "Give the path of a JSON file, or - to read stdin." });
    }
  }
  // Editors on Windows often save a byte-order mark; JSON.parse refuses it.
  text = text.replace(/^\uFEFF/, "");
  if (text.trim() === "") throw new UsageError(`${label} is empty: expected a JSON object`);
  try {
    return { value: JSON.parse(text) as unknown, label };
  } catch (e) {
    throw new UsageError(`${label} is not valid JSON: ${(e as Error).message}`, {
      hint: "Check quotes and commas; keys and strings need double quotes.",
    });
  }
}

function reasonFor(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return "no such file";
  if (code === "EISDIR") return "it is a folder, not a file";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  return (e as Error).message;
}

/** The parsed JSON must be an object (not a list, string or number). */
export function expectObject(input: JsonInput, what: string): Record<string, unknown> {
  const v = input.value;
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    const got = Array.isArray(v) ? "a list" : v === null ? "null" : `a ${typeof v}`;
    throw new UsageError(`${input.label} must hold one ${what} as a JSON object, but holds ${got}`);
  }
  return v as Record<string, unknown>;
}
