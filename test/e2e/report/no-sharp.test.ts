// sharp loaded only where photos need it (issue 24): with a module hook that makes sharp fail to load, a command that
// needs no photos works, and `report upload` stops before anything is sent, exit 2, with sharp's own fix.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, runCli } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { rowsFile } from "../batch/helpers.js";
import { batchRoot, createShipments } from "./setup.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const env = { NODE_OPTIONS: `--import=${pathToFileURL(join(ROOT, "test/helpers/no-sharp.mjs")).href}` };

describe("a system where sharp cannot load", () => {
  it("shipment create --csv works: it never loads sharp", async () => {
    const org = await sb.newOrg();
    const { path } = rowsFile(2, { seed: 243, titlePrefix: "NoSharp" });
    const r = await runCli(["shipment", "create", "--csv", path], { sandbox: org, env });
    expect(r.exitCode, r.stderr).toBe(0);
  });

  it("report upload stops before sending, exit 2, naming sharp's fix", async () => {
    const org = await sb.newOrg();
    const ids = await createShipments(org, 1);
    for (const id of ids) await org.control.setStatus(id, "Delivered");
    await org.control.clearRequests();
    const r = await runCli(["report", "upload", "--batch", batchRoot(ids, "nested"), "--set", "1"], { sandbox: org, env });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain("sharp cannot be loaded");
    expect(r.stderr).toContain("npm install --include=optional sharp");
    expect(r.stderr).not.toContain("bug in shipctl");
    expect(await org.control.requests({ method: "POST" })).toEqual([]);
  });
});
