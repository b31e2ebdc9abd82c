// `watch --exec CMD`: the command runs once per event, through the shell (so pipes, redirections and quoting work as
// typed), with the event as one line of JSON on its stdin. Events are handed over one at a time, in order: the next
// waits until the command has finished. Its stdout and stderr go to shipctl's stderr, so `--ndjson` output stays
// data only. A command that fails is reported and the watch goes on: a hook that cannot post a message must not stop
// the watching, and the change is in the output all the same.
// The shell is /bin/sh on macOS and Linux, cmd.exe on Windows (ComSpec): docs/windows-macos.md gives a hook for each.
// Stopping a hook stops all it started, not just the shell: on macOS and Linux it runs in a process group of its own
// (detached) and the group is signalled; Windows has no groups and never delivers SIGTERM, so the process tree is
// ended with `taskkill /T /F`.
import { spawn } from "node:child_process";
import type { WatchEvent } from "./changes.js";

export interface HookContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Ctrl-C: the command and all it started are ended, and the watch stops. */
  signal: AbortSignal;
  /** The system, and how processes are started (tests inject Windows'). */
  platform?: NodeJS.Platform;
  spawn?: typeof spawn;
  /** The command's own output, passed on to stderr. */
  output(text: string): void;
}

/** Runs the command for one event; resolves to why it failed ("exited with 3"), or undefined when it succeeded. */
export function runHook(command: string, event: WatchEvent, ctx: HookContext): Promise<string | undefined> {
  return new Promise((resolve) => {
    let failed: string | undefined;
    const platform = ctx.platform ?? process.platform;
    const start = ctx.spawn ?? spawn;
    const child = start(command, { shell: true, cwd: ctx.cwd, env: ctx.env, stdio: ["pipe", "pipe", "pipe"], detached: platform !== "win32", windowsHide: true });
    const stop = () => {
      failed = "stopped (interrupted)";
      if (child.pid !== undefined) stopTree(child.pid, platform, start);
    };
    if (ctx.signal.aborted) stop();
    else ctx.signal.addEventListener("abort", stop, { once: true });
    child.once("close", () => ctx.signal.removeEventListener("abort", stop));
    child.stdout!.setEncoding("utf8").on("data", ctx.output);
    child.stderr!.setEncoding("utf8").on("data", ctx.output);
    // A command that does not read its stdin (`notify-send done`) may exit before the event is written: not a failure.
    child.stdin!.on("error", () => undefined);
    child.stdin!.end(`${JSON.stringify(event)}\n`);
    child.on("error", (err) => {
      failed ??= `could not start: ${err.message}`;
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

/** Ends a hook and every process it started: its process tree on Windows, its process group elsewhere. */
function stopTree(pid: number, platform: NodeJS.Platform, start: typeof spawn): void {
  if (platform === "win32") {
    start("taskkill", ["/T", "/F", "/PID", String(pid)], { stdio: "ignore", windowsHide: true }).on("error", () => undefined);
    return;
  }
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    // The group is gone already.
  }
}
