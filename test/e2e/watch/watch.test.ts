// `shipctl watch` run as a user would, against the sandbox moving shipments: each change once, what changed while it
// was stopped reported first, --until, --exec, and ids that do not exist. Every wait is for output, never for time.
import { afterAll, beforeAll, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ChildProcess } from "node:child_process";
import { collect, runCli, spawnCli, tempDir, type RunOptions } from "../../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { seedShipments } from "../../helpers/seed.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const FAST = ["--interval", "1", "--max-interval", "1"];

/** A running watch: its output so far, and a wait for the next thing it prints. */
function watch(args: string[], options: RunOptions) {
  const child: ChildProcess = spawnCli(["watch", ...args], { ...options, env: { TZ: "UTC", ...options.env } });
  const result = collect(child);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer | string) => (stdout += String(d)));
  child.stderr!.on("data", (d: Buffer | string) => (stderr += String(d)));
  const until = (check: () => boolean, what: string) =>
    new Promise<void>((resolve, reject) => {
      const look = () => {
        if (check()) return resolve();
        if (child.exitCode !== null) return reject(new Error(`watch ended before ${what}\nstdout: ${stdout}\nstderr: ${stderr}`));
        setTimeout(look, 20);
      };
      look();
    });
  const events = () => stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  return {
    child,
    result,
    events,
    started: () => until(() => stderr.includes("Watching"), "its first reading"),
    eventCount: (n: number) => until(() => events().length >= n, `${n} events`),
  };
}

async function orgWith(count: number): Promise<{ org: OrgTarget; ids: number[] }> {
  const org = await sb.newOrg();
  return { org, ids: await seedShipments(org, count) };
}

it("--ndjson emits each change once as the sandbox moves shipments, and --until ends it with 0", async () => {
  const { org, ids } = await orgWith(2);
  const [a, b] = ids as [number, number];
  const w = watch([String(a), String(b), "--ndjson", "--until", "Arrived", ...FAST], { sandbox: org });
  await w.started();
  await org.control.setStatus(a, "Delivered", "2026-03-01 10:00:00");
  await w.eventCount(1);
  await org.control.setStatus(b, "Arrived", "2026-03-01 11:00:00");
  await w.eventCount(2);
  await org.control.setStatus(a, "Arrived", "2026-03-01 12:00:00");
  const r = await w.result;
  expect(r.exitCode).toBe(0);
  expect(r.stderr).toContain("Every watched shipment is Arrived or later.");
  expect(w.events()).toEqual([
    { id: a, title: "Piece 1", from: "Draft", to: "Delivered", at: "2026-03-01T10:00:00.000Z", window_closes_at: "2026-03-31T10:00:00.000Z" },
    { id: b, title: "Piece 2", from: "Draft", to: "Arrived", at: "2026-03-01T11:00:00.000Z", window_closes_at: "2026-03-02T11:00:00.000Z" },
    { id: a, title: "Piece 1", from: "Delivered", to: "Arrived", at: "2026-03-01T12:00:00.000Z", window_closes_at: "2026-03-02T12:00:00.000Z" },
  ]);
});

it("survives a restart: Ctrl-C exits 130 with the state saved, and the next watch reports what changed meanwhile first", async () => {
  const { org, ids } = await orgWith(1);
  const id = String(ids[0]);
  const configDir = tempDir();
  const w = watch([id, "--ndjson", ...FAST], { sandbox: org, configDir });
  await w.started();
  w.child.kill("SIGINT");
  const stopped = await w.result;
  expect(stopped.exitCode).toBe(130);
  // Ctrl-C is how a watch ends (issue 20): one line saying so, no error, nothing about writes, no error line.
  const afterStart = stopped.stderr.slice(stopped.stderr.indexOf("Ctrl-C to stop.\n") + "Ctrl-C to stop.\n".length);
  expect(afterStart).toMatch(/^Stopped\. The last statuses seen are kept in [^\n]+\n$/);
  expect(stopped.stdout).toBe("");

  await org.control.setStatus(ids[0]!, "Delivered");
  const again = await runCli(["watch", id, "--until", "Delivered", ...FAST], { sandbox: org, configDir, env: { TZ: "UTC" } });
  expect(again.exitCode).toBe(0);
  expect(again.stdout).toMatch(new RegExp(`^${id} Draft → Delivered at \\d{2}:\\d{2} UTC([+-]\\d{2}:\\d{2})? \\(set 1 window closes \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC([+-]\\d{2}:\\d{2})?\\)\\n$`));
  expect(again.stderr).toContain("changes since the last watch first");
});

it("with no ids watches every shipment not yet Completed, through a 429 (Retry-After honoured)", async () => {
  const { org, ids } = await orgWith(3);
  await org.control.setStatus(ids[2]!, "Completed");
  const w = watch(["--ndjson", "--until", "Delivered", ...FAST], { sandbox: org });
  await w.started();
  await org.control.fault({ method: "GET", path: "/api/v1/shipments", kind: "429", retryAfter: 1, count: 1 });
  await org.control.setStatus(ids[0]!, "Delivered");
  await w.eventCount(1);
  await org.control.setStatus(ids[1]!, "Delivered");
  const r = await w.result;
  expect(r.exitCode).toBe(0);
  expect(r.stderr).toContain("Watching 2 shipments not yet Completed (2 Draft)");
  expect(w.events().map((e) => [e.id, e.to])).toEqual([
    [ids[0], "Delivered"],
    [ids[1], "Delivered"],
  ]);
  const answers = (await org.control.requests({ method: "GET", path: "/api/v1/shipments" })).map((q) => q.status);
  expect(answers).toContain(429);
});

it("--exec gets each event's JSON on stdin; its failure is reported and the watch goes on", async () => {
  const { org, ids } = await orgWith(1);
  const cwd = tempDir();
  const w = watch([String(ids[0]), "--ndjson", "--until", "Filed", "--exec", "cat >> events.jsonl; exit 4", ...FAST], { sandbox: org, cwd });
  await w.started();
  await org.control.setStatus(ids[0]!, "Delivered");
  await w.eventCount(1);
  await org.control.setStatus(ids[0]!, "Filed");
  const r = await w.result;
  expect(r.exitCode).toBe(0);
  expect(readFileSync(join(cwd, "events.jsonl"), "utf8")).toBe(r.stdout);
  expect(r.stderr.match(/--exec failed for \d+ \S+ → \S+: exited with 4/g)).toHaveLength(2);
});

it("ids that do not exist are a clear error (exit 6), before any watching", async () => {
  const { org, ids } = await orgWith(1);
  const r = await runCli(["watch", String(ids[0]), "999998", "999999", ...FAST], { sandbox: org });
  expect(r.exitCode).toBe(6);
  expect(r.stderr).toContain("shipments 999998, 999999 do not exist");
  expect(r.stdout).toBe("");
});

it("judges whether the window a change opened is still open on the service's clock, not this machine's", async () => {
  const { org, ids } = await orgWith(1);
  const id = String(ids[0]);
  const configDir = tempDir();
  // Seen as Draft first, then Arrived 2 hours ago on a service clock 3 days behind this machine's: its set 2 window
  // closes in 22 hours (this machine's clock would call it closed 2 days ago).
  expect((await runCli(["watch", id, "--until", "Draft", ...FAST], { sandbox: org, configDir })).exitCode).toBe(0);
  await org.control.offsetClock(-3 * 86_400_000);
  await org.control.setStatus(ids[0]!, "Arrived", new Date(Date.now() - 3 * 86_400_000 - 2 * 3_600_000).toISOString());
  const again = await runCli(["watch", id, "--until", "Arrived", ...FAST], { sandbox: org, configDir, env: { TZ: "UTC" } });
  expect(again.exitCode, again.stderr).toBe(0);
  expect(again.stdout).toMatch(new RegExp(`^${id} Draft → Arrived at .+ \\(set 2 window closes .+\\)\\n$`));
});
