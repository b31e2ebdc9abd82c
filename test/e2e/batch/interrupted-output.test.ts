// Issue 12, point 4: after Ctrl-C on a long import, the results table and the command that resumes the run are each
// printed once, also when some rows' answers were lost on the way (unknown), which used to add a second copy of the
// resume command in its own note.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { collect, spawnCli } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { rowsFile } from "./helpers.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ applyMaxMs: 1500 });
});
afterAll(() => sb.close());

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe("Ctrl-C on a 300-row import", () => {
  it("prints the table once and the resume command once, with rows whose answers were lost", async () => {
    const org = await sb.newOrg();
    // The first request is applied and its answer lost; the others are slow enough to be stopped midway.
    await org.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "reset-after", count: 1 });
    await org.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "latency", ms: 300, count: 100 });
    const { path } = rowsFile(300, { seed: 84, titlePrefix: "Once" });
    const child = spawnCli(["shipment", "create", "--csv", path, "--concurrency", "2"], { sandbox: org });
    const done = collect(child, 60_000);
    await vi.waitFor(async () => expect((await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).length).toBeGreaterThanOrEqual(3), {
      timeout: 20_000,
      interval: 50,
    });
    child.kill("SIGINT");
    const r = await done;
    expect(r.exitCode, r.stderr).toBe(130);
    expect(occurrences(r.stdout, "ROW  REFERENCE")).toBe(1);
    expect(occurrences(r.stdout, "Once-00300")).toBe(1);
    expect(r.stderr).toContain("unknown");
    expect(occurrences(r.stderr, `shipctl shipment create --csv ${path}`)).toBe(1);
    expect(r.stderr).toContain("Interrupted.");
  });
});
