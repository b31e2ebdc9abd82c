// The one size rule, end to end: with --fit nothing over 1,000,000 bytes reaches the service; without it, a photo
// between 1,000,000 and 1,048,576 bytes is sent as it is with a note naming --fit.
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, runCli, tempDir } from "../../helpers/cli.js";
import { segment } from "../../helpers/photo-makers.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { shipmentReadyFor } from "./setup.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ applyMaxMs: 1000 });
});
afterAll(() => sb.close());

/** The nested fixture with box/top.jpg padded by comment segments to exactly `size` bytes (still a valid JPEG). */
function folderWith(size: number): string {
  const dir = join(tempDir("shipctl-size-"), "photos");
  cpSync(fixture("photos/nested"), dir, { recursive: true });
  const path = join(dir, "box", "top.jpg");
  const jpeg = readFileSync(path);
  const pads: Buffer[] = [];
  for (let left = size - jpeg.length; left > 0; ) {
    const n = left > 65_537 ? 60_000 : left;
    pads.push(segment(0xfe, Buffer.alloc(n - 4)));
    left -= n;
  }
  writeFileSync(path, Buffer.concat([jpeg.subarray(0, 2), ...pads, jpeg.subarray(2)]));
  expect(readFileSync(path).length).toBe(size);
  return dir;
}

describe("report upload: the size rule", () => {
  it.each([1_000_001, 1_048_576])("%i bytes: a note without --fit; with --fit a copy of at most 1,000,000 bytes, pixels untouched", async (size) => {
    const dir = folderWith(size);
    const org = await sb.newOrg();
    const plain = await shipmentReadyFor(org, 1);
    const r1 = await runCli(["report", "upload", String(plain), dir, "--set", "1"], { sandbox: org });
    expect(r1.exitCode).toBe(0);
    expect(r1.stderr).toContain("a service that reads 1 MB as 1,000,000 bytes would refuse it; --fit sends a copy of at most 1,000,000 bytes");

    const fitted = await shipmentReadyFor(org, 1);
    // The same photos again, on purpose: the two shipments' copies are compared.
    const r2 = await runCli(["report", "upload", String(fitted), dir, "--set", "1", "--fit", "--allow-reused"], { sandbox: org });
    expect(r2.exitCode).toBe(0);
    expect(r2.stderr).not.toContain("would refuse");
    expect(r2.stderr).toMatch(/Fitted .*box\/top\.jpg: .* by dropping other metadata blocks \(pixels unchanged\)/);
    const reports = await org.control.reports();
    const top = (id: number) => reports.find((r) => r.shipment_id === id)!.photos[2]!;
    expect(top(plain).size).toBe(size);
    expect(top(fitted).size).toBeLessThanOrEqual(1_000_000);
    expect(top(fitted).size).toBe(readFileSync(fixture("photos/nested/box/top.jpg")).length);
  });
});
