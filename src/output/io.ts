// Where a command reads and writes. stdout carries only data; everything else (progress, warnings, prompts) goes to
// stderr. Tests capture both with their own IO (test/helpers/test-io.ts).
import type { Readable } from "node:stream";

// node:fs not imported as an ES module: that has Node read every export of it, among them the lazy ReadStream and
// WriteStream classes, which load the stream modules that writing stdout directly means to skip.
const { fstatSync, statSync, writeSync } = process.getBuiltinModule("node:fs");

export interface IO {
  /** Data: tables for people, JSON for programs. Nothing else. */
  out(text: string): void;
  /** Talk: progress, warnings, hints, notes. Silent with --quiet (quietIO). */
  err(text: string): void;
  /**
   * Talk that --quiet keeps, on the same stream as err: an error, the one-line summary of what the command did, and
   * what a person must see to answer a prompt.
   */
  alert(text: string): void;
  readonly stdin: Readable;
  readonly stdinIsTTY: boolean;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  /** Terminal width of stderr/stdout, or 80. */
  readonly columns: number;
}

export function systemIO(): IO {
  const stdout = stdoutWriter();
  const stderr = stderrStream();
  // process.stdin and process.stderr are built by Node on first use (a stream, and for stdin a pipe or terminal
  // handle): a run that never reads stdin or asks whether it is a terminal (`--version`, `--help`) skips that work.
  return {
    out: (text) => stdout.write(text),
    err: (text) => void stderr().write(text),
    alert: (text) => void stderr().write(text),
    get stdin() {
      return process.stdin;
    },
    get stdinIsTTY() {
      return Boolean(process.stdin.isTTY);
    },
    get stdoutIsTTY() {
      return stdout.isTTY();
    },
    get stderrIsTTY() {
      // Every run asks (colours): a pipe, a file or /dev/null answers without Node building process.stderr.
      return !notATerminal(2) && Boolean(process.stderr.isTTY);
    },
    get columns() {
      // A stdout that is not a terminal has no width (process.stdout.columns would be undefined).
      return (stdout.isTTY() && process.stdout.columns) || process.stderr.columns || 80;
    },
  };
}

/**
 * The IO of a command run inside this process (an MCP tool call, a demo step): its stdout captured, and handed to
 * `echo` as it comes; its talk to `talk`; its stdin the text given, never this process's own. Not terminals: no
 * colours, no progress redrawn in place, no prompt (a person cannot answer one here).
 */
export function capturedIO(talk: IO["err"], stdinText = "", echo?: IO["out"]): IO & { captured(): string } {
  let out = "";
  // Loaded here, not imported (as node:fs above): a run that captures nothing skips the stream modules.
  const { PassThrough } = process.getBuiltinModule("node:stream");
  const stdin = new PassThrough();
  stdin.end(stdinText);
  return {
    out: (text) => {
      out += text;
      echo?.(text);
    },
    err: talk,
    alert: talk,
    stdin,
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    columns: 80,
    captured: () => out,
  };
}

/** `--quiet`: the same IO without its talk; data, errors, summaries and what a prompt needs still go through. */
export function quietIO(io: IO): IO {
  // As watchStdout: io's getters stay lazy.
  return Object.create(io, { err: { value: () => undefined } }) as IO;
}

/**
 * stdout, written with fs.writeSync while it is a pipe, a socket, a file or /dev/null: Node itself writes files and
 * (on Linux) pipes synchronously, and building process.stdout loads Node's stream modules, a visible share of
 * `--help`. A terminal, Windows, or a write the descriptor refuses (EAGAIN when it is non-blocking, or any other
 * error) goes through process.stdout instead, and so does every write after it, in order.
 */
function stdoutWriter(): { write(text: string): void; isTTY(): boolean } {
  let mode: "undecided" | "direct" | "stream" | "closed" = "undecided";
  const useStream = () => {
    mode = "stream";
    process.stdout.on("error", ignoreClosedPipe);
  };
  const decide = () => {
    if (mode !== "undecided") return;
    if (notATerminal(1)) mode = "direct";
    else useStream();
  };
  return {
    isTTY() {
      decide();
      return mode === "stream" && Boolean(process.stdout.isTTY);
    },
    write(text) {
      decide();
      if (mode === "stream") {
        process.stdout.write(text);
        return;
      }
      if (mode === "closed") return;
      const bytes = Buffer.from(text, "utf8");
      let written = 0;
      try {
        while (written < bytes.length) written += writeSync(1, bytes, written, bytes.length - written);
      } catch (e) {
        // The reader is gone (`| head`): the rest of the output has nowhere to go, as with the stream before.
        if ((e as NodeJS.ErrnoException).code === "EPIPE") {
          mode = "closed";
          return;
        }
        useStream();
        process.stdout.write(bytes.subarray(written));
      }
    },
  };
}

/**
 * process.stderr, made on first use, with a reader that went away (`shipctl ... 2>&1 | head -1`, or stderr closed)
 * taken as stdout's is: the talk has nowhere to go, and the run goes on to its own exit code. Unheard, Node would
 * throw the EPIPE as an uncaught error and exit 1, the code of a bug.
 */
function stderrStream(): () => NodeJS.WriteStream {
  let stream: NodeJS.WriteStream | undefined;
  return () => (stream ??= process.stderr.on("error", ignoreClosedPipe));
}

/** A closed pipe (`shipctl list --all | head`) is not an error worth a stack trace. */
export function ignoreClosedPipe(e: NodeJS.ErrnoException): void {
  if (e.code !== "EPIPE") throw e;
}

/**
 * The same IO, noting whether anything was written on stdout: main() prints a failure's JSON document only on a
 * stdout still empty, as a command that printed its own document put the failure in it (json.ts).
 */
export function watchStdout(io: IO): { io: IO; written(): boolean } {
  let written = false;
  // Object.create keeps io's getters (stdin, isTTY) lazy: a run that never asks never builds those streams.
  const watched = Object.create(io, {
    out: {
      value: (text: string) => {
        if (text !== "") written = true;
        io.out(text);
      },
    },
  }) as IO;
  return { io: watched, written: () => written };
}

/**
 * The same IO, its stdout written as ASCII while `ascii()` says so: JSON that Windows hands to another program.
 * PowerShell (5.1, and 7 by default) decodes a program's output with the console's code page, not UTF-8, so
 * `shipctl address get 1 --json | ConvertFrom-Json`, or `> a.json`, turned "Müller" into "MÃ¼ller", and the edited file
 * sent the garbled name back. Outside its strings JSON is ASCII, so writing every other character as an escape
 * (`"M\u00fcller"`) keeps the same document for every reader.
 */
export function asciiJsonStdout(io: IO, ascii: () => boolean): IO {
  return Object.create(io, { out: { value: (text: string) => io.out(ascii() ? escapeNonAscii(text) : text) } }) as IO;
}

/** `text` with every character outside ASCII written as a JSON escape (a pair of them beyond U+FFFF). */
export function escapeNonAscii(text: string): string {
  return text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** True when the descriptor is certainly not a terminal: a pipe, a socket, a file or /dev/null (never on Windows). */
function notATerminal(fd: number): boolean {
  if (process.platform === "win32") return false;
  try {
    const stat = fstatSync(fd);
    if (stat.isFIFO() || stat.isSocket() || stat.isFile()) return true;
    return stat.isCharacterDevice() && stat.rdev === statSync("/dev/null").rdev;
  } catch {
    return false;
  }
}

/** Reads all of a stream as UTF-8 text (for `--file -`). */
export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}
