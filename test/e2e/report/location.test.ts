// --strip-location and the profile's stripLocation: what reaches the service, checked by its SHA-256 there.
import { createHash } from "node:crypto";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stripLocation } from "../../../src/reports/photo-metadata.js";
import { fixture, runCli, tempDir } from "../../helpers/cli.js";
import { phoneJpeg } from "../../helpers/photo-makers.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { shipmentReadyFor } from "./setup.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ applyMaxMs: 1000 });
});
afterAll(() => sb.close());

const sha = (data: Buffer) => createHash("sha256").update(data).digest("hex");

/** The nested fixture with box/front.jpg replaced by a phone photo carrying a GPS position. */
async function folderWithGps(): Promise<{ dir: string; original: Buffer }> {
  const dir = join(tempDir("shipctl-gps-"), "photos");
  cpSync(fixture("photos/nested"), dir, { recursive: true });
  const original = await phoneJpeg({ width: 400, height: 300, orientation: 6 });
  writeFileSync(join(dir, "box", "front.jpg"), original);
  return { dir, original };
}

describe("report upload: the GPS position", () => {
  it("is sent as the photo has it by default, and removed without re-encoding with --strip-location", async () => {
    const { dir, original } = await folderWithGps();
    const org = await sb.newOrg();
    const kept = await shipmentReadyFor(org, 1);
    const r1 = await runCli(["report", "upload", String(kept), dir, "--set", "1"], { sandbox: org });
    expect(r1.exitCode).toBe(0);
    expect(r1.stderr).not.toContain("GPS");

    const stripped = await shipmentReadyFor(org, 1);
    // The same photos again, on purpose: the two shipments' copies are compared.
    const r2 = await runCli(["report", "upload", String(stripped), dir, "--set", "1", "--strip-location", "--allow-reused"], { sandbox: org });
    expect(r2.exitCode).toBe(0);
    expect(r2.stderr).toMatch(/Location .*photos: GPS position removed from 1 photo \(copies; pixels and the rest of the metadata unchanged\)/);
    const reports = await org.control.reports();
    const front = (id: number) => reports.find((r) => r.shipment_id === id)!.photos[0]!;
    expect(front(kept).sha256).toBe(sha(original));
    const expected = stripLocation(original, "jpeg").data;
    expect(expected.length).toBe(original.length);
    expect(front(stripped).sha256).toBe(sha(expected));
    expect(front(stripped).sha256).not.toBe(sha(original));
    expect(readFileSync(join(dir, "box", "front.jpg")).equals(original)).toBe(true);
  });

  it("follows the profile's stripLocation, which --keep-location overrides for one run", async () => {
    const { dir, original } = await folderWithGps();
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const set = await runCli(["config", "set", "stripLocation", "true"], { configDir });
    expect(set.exitCode).toBe(0);
    expect((await runCli(["config", "get", "stripLocation"], { configDir })).stdout).toBe("true\n");

    const byProfile = await shipmentReadyFor(org, 1);
    const r1 = await runCli(["report", "upload", String(byProfile), dir, "--set", "1"], { sandbox: org, configDir });
    expect(r1.exitCode).toBe(0);
    expect(r1.stderr).toContain("GPS position removed from 1 photo");
    const keep = await shipmentReadyFor(org, 1);
    const r2 = await runCli(["report", "upload", String(keep), dir, "--set", "1", "--keep-location", "--allow-reused"], { sandbox: org, configDir });
    expect(r2.exitCode).toBe(0);
    const reports = await org.control.reports();
    const front = (id: number) => reports.find((r) => r.shipment_id === id)!.photos[0]!;
    expect(front(byProfile).sha256).toBe(sha(stripLocation(original, "jpeg").data));
    expect(front(keep).sha256).toBe(sha(original));

    const both = await runCli(["report", "upload", String(keep), dir, "--set", "1", "--keep-location", "--strip-location"], { sandbox: org, configDir });
    expect(both.exitCode).toBe(2);
  });
});
