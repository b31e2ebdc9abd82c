// `shipctl sandbox` from the built binary: prints its URL, serves, and stops cleanly on SIGTERM and Ctrl-C.
import type { ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { collect, runCli, spawnCli, tempDir, type RunResult } from "../../helpers/cli.js";
import { createShipments, send } from "./support.js";

/** Resolves with the first line the child prints on stdout. */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = "";
    const onData = (d: Buffer) => {
      buffered += d.toString("utf8");
      const end = buffered.indexOf("\n");
      if (end >= 0) {
        child.stdout!.off("data", onData);
        resolve(buffered.slice(0, end));
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`shipctl sandbox exited (${code}) before printing its URL`)));
  });
}

/** Starts `shipctl sandbox`, waits for the URL, and keeps collecting its output until it exits. */
async function startCli(args: string[]): Promise<{ child: ChildProcess; line: string; done: Promise<RunResult> }> {
  const child = spawnCli(["sandbox", "--port", "0", ...args]);
  const lineP = firstLine(child);
  const done = collect(child);
  return { child, line: await lineP, done };
}

describe("shipctl sandbox", () => {
  it("prints the URL, answers requests, logs them on stderr, and exits 0 on SIGTERM", async () => {
    const { child, line, done } = await startCli([]);
    expect(line).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const r = await send({ url: line, token: "sandbox-token" }, "GET", "/api/v1/shipments");
    expect(r.status).toBe(200);
    child.kill("SIGTERM");
    const result = await done;
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`${line}\n`);
    expect(result.stderr).toContain("GET /api/v1/shipments 200");
    expect(result.stderr).toContain("Sandbox stopped.");
    expect(result.stderr).not.toContain("starting nothing new");
  });

  it("prints {url, token} with --json, takes --token, and stops on Ctrl-C (SIGINT) with exit 0", async () => {
    const { child, line, done } = await startCli(["--json", "--token", "my-token", "--quiet"]);
    const printed = JSON.parse(line) as { url: string; token: string };
    expect(printed.token).toBe("my-token");
    expect((await send(printed, "GET", "/api/v1/shipments")).status).toBe(200);
    child.kill("SIGINT");
    const result = await done;
    expect(result.exitCode).toBe(0);
    expect(result.stderr).not.toContain("GET /api/v1/shipments");
    expect(result.stderr).not.toContain("starting nothing new");
  });

  it("keeps acknowledged changes in --state across a SIGKILL", async () => {
    const file = join(tempDir("sandbox-cli-"), "state.json");
    const first = await startCli(["--state", file, "--quiet"]);
    const target = { url: first.line, token: "sandbox-token" };
    const ids = await createShipments(target, 3);
    first.child.kill("SIGKILL");
    await first.done;
    const second = await startCli(["--state", file, "--quiet"]);
    try {
      const list = await send({ url: second.line, token: "sandbox-token" }, "GET", "/api/v1/shipments");
      expect(list.body.data.map((s: { id: number }) => s.id)).toEqual(ids);
    } finally {
      second.child.kill("SIGTERM");
      expect((await second.done).exitCode).toBe(0);
    }
  });

  it("declares --apply-max in GET /_sandbox/tables", async () => {
    const { child, line, done } = await startCli(["--apply-max", "1234", "--quiet"]);
    try {
      expect((await send({ url: line, token: "sandbox-token" }, "GET", "/_sandbox/tables")).body.apply_max_ms).toBe(1234);
    } finally {
      child.kill("SIGTERM");
      expect((await done).exitCode).toBe(0);
    }
  });

  it("serves as before with its rehearsal verbs beside it, and they talk to the sandbox it started", async () => {
    const { child, line, done } = await startCli(["--quiet"]);
    try {
      const target = { url: line, token: "sandbox-token" };
      const [id] = await createShipments(target, 1);
      const moved = await runCli(["sandbox", "status", String(id), "delivered", "--json"], { sandbox: target });
      expect(moved.exitCode).toBe(0);
      expect((await send(target, "GET", `/api/v1/shipments/${id}`)).body.data.status).toBe(7);
      const help = await runCli(["sandbox", "--help"]);
      for (const verb of ["status", "clock", "payment", "tick"]) expect(help.stdout).toMatch(new RegExp(`^  ${verb}\\b`, "m"));
    } finally {
      child.kill("SIGTERM");
      expect((await done).exitCode).toBe(0);
    }
  });

  it("--tick moves shipments along by itself, one status per period, and leaves Drafts", async () => {
    const { child, line, done } = await startCli(["--tick", "1"]);
    try {
      const target = { url: line, token: "sandbox-token" };
      const [draft, paid] = await createShipments(target, 2);
      await send(target, "POST", `/_sandbox/shipments/${paid}/status`, { json: { status: "Scheduled" } });
      const status = async (id: number) => (await send(target, "GET", `/api/v1/shipments/${id}`)).body.data.status as number;
      // Scheduled → Dispatched → Delivered, then it waits for condition report set 1.
      await vi.waitFor(async () => expect(await status(paid!)).toBe(7), { timeout: 20_000, interval: 200 });
      expect((await send(target, "GET", `/api/v1/shipments/${paid}`)).body.data.delivered_at).not.toBeNull();
      expect(await status(draft!)).toBe(1);
    } finally {
      child.kill("SIGTERM");
      const result = await done;
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toMatch(/tick: organization 1: \d+ Scheduled → Dispatched/);
    }
  });

  it("a rehearsal verb's command-line error is exit 2, shown as the program shows errors", async () => {
    for (const args of [["status", "12"], ["tick", "extra"], ["payment", "--bogus"]]) {
      const r = await runCli(["sandbox", ...args]);
      expect(r.exitCode, args.join(" ")).toBe(2);
      expect(r.stderr).toContain("(run with --help for usage)");
      expect(r.stdout).toBe("");
    }
  });

  it("refuses a bad --port, --latency or --apply-max with exit 2", async () => {
    for (const args of [["--port", "http"], ["--port", "70000"], ["--latency", "-5"], ["--apply-max", "1.5"], ["--apply-max", "600001"]]) {
      const r = await runCli(["sandbox", ...args]);
      expect(r.exitCode, args.join(" ")).toBe(2);
      expect(r.stderr).toContain(args[0]);
      expect(r.stdout).toBe("");
    }
  });

  it("explains a port in use (exit 2)", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = await runCli(["sandbox", "--port", String(port)]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`port ${port}`);
      expect(r.stderr).toContain("--port 0");
    } finally {
      blocker.close();
    }
  });
});
