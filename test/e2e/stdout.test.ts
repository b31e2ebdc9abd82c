import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, ROOT, cliEnv, runCli, tempDir } from "../helpers/cli.js";

// stdout is written with fs.writeSync when it is a pipe, a socket, a file or /dev/null, and through process.stdout
// otherwise (src/output/io.ts): every kind of stdout must get the same bytes, and a reader that leaves early is no
// error.
function runTo(args: string[], stdout: number | "ignore"): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: cliEnv(), stdio: ["ignore", stdout, "pipe"] });
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe("stdout", () => {
  it("a file gets exactly what a pipe gets", async () => {
    for (const args of [["--help"], ["address", "verify", "--help"], ["help", "exit-codes", "--json"], ["--version"]]) {
      const piped = await runCli(args);
      const file = join(tempDir("shipctl-stdout-"), "out.txt");
      const fd = openSync(file, "w");
      const toFile = await runTo(args, fd);
      closeSync(fd);
      expect(toFile.code, args.join(" ")).toBe(0);
      expect(toFile.stderr).toBe("");
      expect(readFileSync(file, "utf8"), args.join(" ")).toBe(piped.stdout);
      expect(piped.stdout.length).toBeGreaterThan(5);
    }
  });

  it("/dev/null is written without complaint", async () => {
    const r = await runTo(["--help"], "ignore");
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
  });

  it("a reader that has gone (`| head` done) is no error: exit 0, nothing on stderr", async () => {
    const child = spawn(process.execPath, [BIN, "--help"], { cwd: ROOT, env: cliEnv(), stdio: ["ignore", "pipe", "pipe"] });
    // Close our end before the CLI writes: its write meets EPIPE.
    child.stdout!.destroy();
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    expect(stderr).toBe("");
  });

  it("a stderr whose reader has gone (`2>&1 | head -1`) is no bug either: the run keeps its own exit code", async () => {
    // Not logged in: exit 4 with the message on stderr, which meets EPIPE (once exit 1, the code of a bug).
    const child = spawn(process.execPath, [BIN, "shipment", "get", "1", "--json"], { cwd: ROOT, env: cliEnv(), stdio: ["ignore", "pipe", "pipe"] });
    child.stderr!.destroy();
    let stdout = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(4);
    expect(JSON.parse(stdout).error).toMatchObject({ code: "auth_required", exit_code: 4 });
  });
});
