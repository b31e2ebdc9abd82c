import { describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import type { spawn } from "node:child_process";
import { join } from "node:path";
import { tempDir } from "../../helpers/cli.js";
import { runHook } from "../../../src/watch/exec-hook.js";
import { needs } from "../../helpers/system.js";

const EVENT = { id: 1, title: "A", from: "Shipped", to: "Arrived", at: "2026-03-01T12:00:00.000Z", window_closes_at: "2026-03-02T12:00:00.000Z" };

function ctx(output: string[] = []) {
  return { cwd: tempDir(), env: process.env, signal: new AbortController().signal, output: (t: string) => void output.push(t) };
}

/** Each hook written for the shell it runs in: /bin/sh, or cmd.exe on Windows. */
const windows = process.platform === "win32";
const HOOKS = windows
  ? { saveEvent: "more > event.json", failLoudly: "echo oops& exit /b 3", nothing: "exit /b 0" }
  : { saveEvent: "cat > event.json && test -s event.json", failLoudly: "echo oops; exit 3", nothing: "true" };

describe("runHook", () => {
  it("runs the command through the shell with the event as JSON on stdin", async () => {
    const c = ctx();
    expect(await runHook(HOOKS.saveEvent, EVENT, c)).toBeUndefined();
    expect(JSON.parse(readFileSync(join(c.cwd, "event.json"), "utf8"))).toEqual(EVENT);
  });

  it("says how a failing command failed, and passes its output on", async () => {
    const output: string[] = [];
    expect(await runHook(HOOKS.failLoudly, EVENT, ctx(output))).toBe("exited with 3");
    expect(output.join("").replace(/\r\n/g, "\n")).toBe("oops\n");
  });

  it("a command that ignores its stdin is no failure", async () => {
    expect(await runHook(HOOKS.nothing, EVENT, ctx())).toBeUndefined();
  });
});

describe("runHook: stopping a hook stops what it started", () => {
  /** Whether a process runs (a zombie, ended but not yet reaped by its new parent, does not). */
  function running(pid: number): boolean {
    try {
      process.kill(pid, 0);
    } catch {
      return false;
    }
    try {
      return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
    } catch {
      return true;
    }
  }

  it.skipIf(windows)(needs(!windows, "POSIX shell", "macOS and Linux: the hook's process group, a command it started in the background included"), async () => {
    const c = { ...ctx(), signal: undefined as unknown as AbortSignal };
    const stop = new AbortController();
    c.signal = stop.signal;
    // The hook starts a long command and waits for it; its pid is written once it runs.
    const hook = runHook("sleep 300 & echo $! > sleeper.pid; wait", EVENT, c);
    const pidFile = join(c.cwd, "sleeper.pid");
    while (!existsSync(pidFile) || readFileSync(pidFile, "utf8").trim() === "") await new Promise((r) => setTimeout(r, 10));
    const sleeper = Number(readFileSync(pidFile, "utf8"));
    expect(running(sleeper)).toBe(true);
    stop.abort();
    expect(await hook).toBe("stopped (interrupted)");
    // Signalled with its group: it ends (without the group, only the shell was ended and this waited forever).
    while (running(sleeper)) await new Promise((r) => setTimeout(r, 10));
  });

  it("Windows: the hook's process tree is ended with taskkill /T /F (Windows delivers no SIGTERM)", async () => {
    const calls: Array<{ command: string; args: readonly string[]; options: object }> = [];
    const hookChild = Object.assign(new EventEmitter(), {
      pid: 4242,
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      stdin: new PassThrough(),
    });
    const fakeSpawn = ((command: string, argsOrOptions: readonly string[] | object, options?: object) => {
      const args = Array.isArray(argsOrOptions) ? argsOrOptions : [];
      calls.push({ command, args, options: (Array.isArray(argsOrOptions) ? options : argsOrOptions) ?? {} });
      if (command === "taskkill") {
        setImmediate(() => hookChild.emit("close", 1, null));
        return new EventEmitter();
      }
      return hookChild;
    }) as unknown as typeof spawn;
    const stop = new AbortController();
    const hook = runHook("notify.cmd", EVENT, { ...ctx(), signal: stop.signal, platform: "win32", spawn: fakeSpawn });
    stop.abort();
    expect(await hook).toBe("stopped (interrupted)");
    expect(calls.map((c) => [c.command, c.args])).toEqual([
      ["notify.cmd", []],
      ["taskkill", ["/T", "/F", "/PID", "4242"]],
    ]);
    // Windows has no process groups: a detached hook would open a console window of its own.
    expect(calls[0]!.options).toMatchObject({ shell: true, detached: false });
  });
});
