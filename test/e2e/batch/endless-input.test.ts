// Input that never ends, or is not text (issue 20 item 13): a device path, NUL bytes anywhere in the file, a first
// line that does not end, on a path or on stdin, CSV or JSON. Each is refused at once, naming the input and what it
// is: exit 2, nothing sent. Endless stdin is a real endless stream (/dev/zero, or a generator), so a run that read on
// would never end and the test would time out, not pass.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReadStream, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { spawn } from "node:child_process";
import { BIN, cliEnv, collect, ROOT, runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { shipmentRows, toCsv } from "../../../fixtures/csv/generate.mjs";

let sb: TestSandbox;
let org: OrgTarget;
beforeAll(async () => {
  sb = await startTestSandbox();
  org = await sb.newOrg();
});
afterAll(() => sb.close());

/** Writes the sandbox received (a first pass may verify the addresses it read before the bad line: that writes nothing). */
const sent = async () =>
  (await org.control.requests()).filter((r) => r.method !== "GET" && !r.path.endsWith("/verify")).map((r) => `${r.method} ${r.path}`);

/** Runs shipctl with `stdin` piped in for as long as it reads; the stream is endless unless it ends itself. */
async function withStdin(args: string[], stdin: Readable) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: cliEnv({ sandbox: org }), stdio: ["pipe", "pipe", "pipe"] });
  stdin.pipe(child.stdin!);
  child.stdin!.on("error", () => undefined);
  try {
    return await collect(child);
  } finally {
    stdin.destroy();
  }
}

describe("input that never ends, or is not text: refused at once, exit 2, nothing sent", () => {
  it("shipment create --csv /dev/zero: a character device, not a file", async () => {
    const r = await runCli(["shipment", "create", "--csv", "/dev/zero"], { sandbox: org });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("Error: /dev/zero is a character device, not a file: --csv takes a CSV file");
    expect(await sent()).toEqual([]);
  });

  it("/dev/null too (refused, not read as an empty file); --file /dev/zero for JSON input", async () => {
    const csv = await runCli(["shipment", "create", "--csv", "/dev/null"], { sandbox: org });
    expect(csv.exitCode).toBe(2);
    expect(csv.stderr).toContain("/dev/null is a character device, not a file");
    const json = await runCli(["shipment", "create", "--file", "/dev/zero"], { sandbox: org });
    expect(json.exitCode).toBe(2);
    expect(json.stderr).toContain("/dev/zero is a character device, not a file: expected a JSON file");
    expect(await sent()).toEqual([]);
  });

  it("cat /dev/zero | shipment create --csv -: the first NUL byte stops it", async () => {
    const r = await withStdin(["shipment", "create", "--csv", "-"], createReadStream("/dev/zero"));
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("Error: stdin holds a NUL byte (line 1): it is binary data, not a text file");
    expect(await sent()).toEqual([]);
  });

  it("endless NUL bytes on stdin for --file - (JSON) and checkout --from -", async () => {
    const json = await withStdin(["shipment", "create", "--file", "-"], createReadStream("/dev/zero"));
    expect(json.exitCode).toBe(2);
    expect(json.stderr).toContain("stdin holds a NUL byte (line 1)");
    const ids = await withStdin(["checkout", "--from", "-", "--yes"], createReadStream("/dev/zero"));
    expect(ids.exitCode).toBe(2);
    expect(ids.stderr).toContain("stdin holds a NUL byte (line 1)");
    expect(await sent()).toEqual([]);
  });

  it("a first line that never ends on stdin: refused after 256 KB", async () => {
    const endless = Readable.from((function* () {
      for (;;) yield Buffer.alloc(64 * 1024, "a");
    })());
    const r = await withStdin(["shipment", "create", "--csv", "-"], endless);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("Error: stdin: the first line does not end within 256 KB; this does not look like a CSV file");
    expect(await sent()).toEqual([]);
  });

  it("NUL bytes after 300 good rows of a file: refused naming the line, before any row is sent", async () => {
    const path = join(tempDir(), "orders.csv");
    const text = toCsv(shipmentRows(300, { seed: 7 }));
    const lines = text.split(/\r?\n/);
    writeFileSync(path, Buffer.concat([Buffer.from(lines.slice(0, 301).join("\n") + "\n"), Buffer.alloc(4096), Buffer.from(lines.slice(301).join("\n"))]));
    const r = await runCli(["shipment", "create", "--csv", path], { sandbox: org });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`Error: ${path} holds a NUL byte (line 302): it is binary data, not a text file`);
    expect(await sent()).toEqual([]);
  });
});
