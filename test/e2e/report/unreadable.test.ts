// Defect 7 of issue 10, made for real: a photo without read permission is a named problem of its folder (exit 2,
// nothing sent), not "a bug in shipctl" (exit 1). Root reads any file whatever its mode, so when the tests run as
// root (as CI does here) the CLI is started as the unprivileged user nobody, and meets the refusal a user would.
// The test is skipped only where that user cannot run this node, or can read a file of mode 000 (a file system
// without permissions); test/unit/reports/unreadable-photo.test.ts covers the same logic everywhere.
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { BIN, fixture, runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { shipmentReadyFor } from "./setup.js";

const NOBODY = { uid: 65534, gid: 65534 };
const user = process.getuid?.() === 0 ? NOBODY : undefined;

/** A folder the CLI's user may enter and list (temporary folders are private to their creator). */
function openFolder(prefix: string): string {
  const dir = tempDir(prefix);
  chmodSync(dir, 0o755);
  return dir;
}

/**
 * Whether the refusal a user meets can be made here: the CLI's user must be able to run this node and read this
 * checkout's bin (a private folder, as .ci/run's clone and its Node 24 live in, is closed to nobody) and must not read
 * a file of mode 000 (a file system without permissions).
 */
function refusalCanBeMade(): boolean {
  const probe = join(openFolder("shipctl-probe-"), "probe.jpg");
  writeFileSync(probe, "x");
  chmodSync(probe, 0o000);
  const fs = `const fs = require("node:fs");`;
  const bin = spawnSync(process.execPath, ["-e", `${fs} fs.accessSync(${JSON.stringify(BIN)}, fs.constants.R_OK)`], { ...user });
  if (bin.error !== undefined || bin.status !== 0) return false;
  const photo = spawnSync(process.execPath, ["-e", `${fs} fs.accessSync(${JSON.stringify(probe)}, fs.constants.R_OK)`], { ...user });
  return photo.error === undefined && photo.status !== 0;
}

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

it.skipIf(!refusalCanBeMade())("a photo without read permission is a problem of its folder: exit 2, named with how to fix it, nothing sent", async () => {
  const org = await sb.newOrg();
  const id = await shipmentReadyFor(org, 1);
  const folder = join(openFolder("shipctl-report-"), "nested");
  cpSync(fixture("photos/nested"), folder, { recursive: true });
  chmodSync(join(folder, "box", "top.jpg"), 0o000);
  const configDir = tempDir("shipctl-config-");
  if (user) chownSync(configDir, user.uid, user.gid);
  const r = await runCli(["report", "upload", String(id), folder, "--set", "1"], { sandbox: org, configDir, user });
  expect(r.exitCode, r.stderr).toBe(2);
  expect(r.stderr).toContain("box/top.jpg: cannot be read: permission denied (EACCES)");
  expect(r.stderr).toContain("1 problem in");
  expect(r.stderr).not.toContain("bug in shipctl");
  // Only the test's own requests: the shipment was not even read.
  expect((await org.control.requests()).filter((q) => q.path !== "/api/v1/shipments" && !q.path.startsWith("/_sandbox"))).toEqual([]);
});
