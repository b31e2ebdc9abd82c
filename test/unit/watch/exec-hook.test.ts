import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../helpers/cli.js";
import { runHook } from "../../../src/watch/exec-hook.js";

const EVENT = { id: 1, title: "A", from: "Shipped", to: "Arrived", at: "2026-03-01T12:00:00.000Z", window_closes_at: "2026-03-02T12:00:00.000Z" };

function ctx(output: string[] = []) {
  return { cwd: tempDir(), env: process.env, signal: new AbortController().signal, output: (t: string) => void output.push(t) };
}

describe("runHook", () => {
  it("runs the command through the shell with the event as JSON on stdin", async () => {
    const c = ctx();
    expect(await runHook("cat > event.json && test -s event.json", EVENT, c)).toBeUndefined();
    expect(JSON.parse(readFileSync(join(c.cwd, "event.json"), "utf8"))).toEqual(EVENT);
  });

  it("says how a failing command failed, and passes its output on", async () => {
    const output: string[] = [];
    expect(await runHook("echo oops; exit 3", EVENT, ctx(output))).toBe("exited with 3");
    expect(output.join("")).toBe("oops\n");
  });

  it("a command that ignores its stdin is no failure", async () => {
    expect(await runHook("true", EVENT, ctx())).toBeUndefined();
  });
});
