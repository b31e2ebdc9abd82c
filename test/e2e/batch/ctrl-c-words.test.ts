// What the first Ctrl-C says: "requests already sent get up to 30 s to answer" only while a write is on the wire. It was
// printed at every first Ctrl-C, also by a run that had sent nothing (reading, listing), which ends silently.
// Each step waits on the sandbox's own log of the held request, never on a clock.
import { describe, expect, it } from "vitest";
import { collect, spawnCli, tempDir } from "../../helpers/cli.js";
import { HOLD_APPLY_MAX_MS, bodyRead, inFlightSandbox, printed } from "../../helpers/slow-apply.js";
import { rowsFile } from "./helpers.js";

const sandbox = inFlightSandbox({ applyMaxMs: HOLD_APPLY_MAX_MS });

const WAIT_WORDS = "requests already sent get up to 30 s to answer";

describe("the first Ctrl-C", () => {
  it("while a create is on the wire: says its answer is awaited, exit 130", async () => {
    const org = await sandbox().newOrg();
    const CREATE = { method: "POST", path: "/api/v1/shipments" };
    await org.control.fault({ ...CREATE, kind: "hold" });
    const { path } = rowsFile(1, { seed: 7, titlePrefix: "Words" });
    const child = spawnCli(["shipment", "create", "--csv", path], { sandbox: org, configDir: tempDir("shipctl-config-") });
    const result = collect(child, 60_000);
    await bodyRead(org, CREATE);
    const waiting = printed(child, new RegExp(WAIT_WORDS));
    child.kill("SIGINT");
    await waiting;
    await org.control.releaseHeld();
    const r = await result;
    expect(r.exitCode, r.stderr).toBe(130);
    expect(r.stderr).toContain(`Interrupted: starting nothing new; ${WAIT_WORDS}`);
  });

  it("while a read is on the wire (shipment get): no word of requests already sent, exit 130", async () => {
    const org = await sandbox().newOrg();
    const READ = { method: "GET", path: "/api/v1/shipments/1" };
    await org.control.fault({ ...READ, kind: "hold" });
    const child = spawnCli(["shipment", "get", "1"], { sandbox: org, configDir: tempDir("shipctl-config-") });
    const result = collect(child, 60_000);
    await bodyRead(org, READ);
    child.kill("SIGINT");
    const r = await result;
    await org.control.releaseHeld();
    expect(r.exitCode, r.stderr).toBe(130);
    expect(r.stdout).toBe("");
    expect(r.stderr).not.toContain(WAIT_WORDS);
  });
});
