// `watch --exec CMD`: the command runs once per event, through the shell (so pipes, redirections and quoting work as
// typed), with the event as one line of JSON on its stdin. Events are handed over one at a time, in order: the next
// waits until the command has finished. Its stdout and stderr go to shipctl's stderr, so `--ndjson` output stays
// data only. A command that fails is reported and the watch goes on: a hook that cannot post a message must not stop
// the watching, and the change is in the output all the same.
import { spawn } from "node:child_process";
import type { WatchEvent } from "./changes.js";

export interface HookContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Ctrl-C: the command is ended (SIGTERM) and the watch stops. */
  signal: AbortSignal;
  /** The command's own output, passed on to stderr. */
  output(text: string): void;
}

/** Runs the command for one event; resolves to why it failed ("exited with 3"), or undefined when it succeeded. */
export function runHook(command: string, event: WatchEvent, ctx: HookContext): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, cwd: ctx.cwd, env: ctx.env, stdio: ["pipe", "pipe", "pipe"], signal: ctx.signal });
    child.stdout.setEncoding("utf8").on("data", ctx.output);
    child.stderr.setEncoding("utf8").on("data", ctx.output);
    // A command that does not read its stdin (`notify-send done`) may exit before the event is written: not a failure.
    child.stdin.on("error", () => undefined);
    child.stdin.end(`${JSON.stringify(event)}\n`);
    let failed: string | undefined;
    child.on("error", (err) => {
      failed = ctx.signal.aborted ? "stopped (interrupted)" : `could not start: ${err.message}`;
      // A command that never started has no 'close' to wait for.
      if (child.pid === undefined) resolve(failed);
    });
    child.on("close", (code, signal) => {
      if (failed !== undefined) resolve(failed);
      else if (signal) resolve(`ended by ${signal}`);
      else resolve(code === 0 ? undefined : `exited with ${code}`);
    });
  });
}
