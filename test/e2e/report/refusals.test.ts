// Every way a report is refused, with its exit code: by the local checks (count, size, type: exit 2, nothing sent),
// by the status or the time window read before sending (exit 6, nothing sent), and by the service itself when the
// local read could not tell (exit 6, its answer explained).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, runCli } from "../../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { ago, createShipments, DAY, HOUR, shipmentReadyFor } from "./setup.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const upload = (org: OrgTarget, id: number, folder: string, set: 1 | 2, ...extra: string[]) =>
  runCli(["report", "upload", String(id), fixture("photos", folder), "--set", String(set), ...extra], { sandbox: org });

async function reportPosts(org: OrgTarget) {
  return (await org.control.requests({ method: "POST" })).filter((r) => r.path.startsWith("/api/v1/reports/"));
}

describe("refused before anything is sent", () => {
  it("count: a side missing or given twice is exit 2", async () => {
    const org = await sb.newOrg();
    const id = await shipmentReadyFor(org, 1);
    const missing = await upload(org, id, "side-missing", 1);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("art/left: missing");
    expect(missing.stderr).toContain("IMG_4471.jpg");
    const twice = await upload(org, id, "side-twice", 1);
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr).toMatch(/box-front\.jpg, box\/front\.jpg: 2 photos for box front/);
    expect(await reportPosts(org)).toHaveLength(0);
  });

  it("type: HEIC, WebP, TIFF and a truncated JPEG are all named at once, exit 2", async () => {
    const org = await sb.newOrg();
    const id = await shipmentReadyFor(org, 1);
    const r = await upload(org, id, "bad-types", 1, "--json");
    expect(r.exitCode).toBe(2);
    const out = JSON.parse(r.stdout);
    expect(out.sent).toBe(false);
    expect(out.problems.map((p: { file: string }) => p.file).sort()).toEqual(["art-bottom.tif", "art-right.webp", "box-back.jpg", "box-top.heic"]);
    expect(r.stderr).toContain("4 problems");
    expect(r.stderr).toContain("export it as JPEG");
    expect(await reportPosts(org)).toHaveLength(0);
  });

  it("size: a photo over 1,048,576 bytes is exit 2 and points to --fit", async () => {
    const org = await sb.newOrg();
    const id = await shipmentReadyFor(org, 1);
    const r = await upload(org, id, "oversized", 1);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("box/front.jpg: 1.12 MiB");
    expect(r.stderr).toContain("--fit");
    expect(await reportPosts(org)).toHaveLength(0);
  });

  it("status: set 1 before Delivered and set 2 before Arrived are exit 6", async () => {
    const org = await sb.newOrg();
    const [draft] = await createShipments(org, 1);
    const r = await upload(org, draft!, "nested", 1);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toContain("only while the shipment is Delivered (7)");
    expect(r.stderr).toContain("Draft (1)");
    const delivered = await shipmentReadyFor(org, 1);
    const two = await upload(org, delivered, "nested", 2);
    expect(two.exitCode).toBe(6);
    expect(two.stderr).toContain("Arrived (11)");
    expect(await reportPosts(org)).toHaveLength(0);
  });

  it("window: set 1 more than 30 days after delivery, set 2 more than 24 hours after arrival, exit 6 with how long ago", async () => {
    const org = await sb.newOrg();
    const late1 = await shipmentReadyFor(org, 1, ago(31 * DAY));
    const r1 = await upload(org, late1, "nested", 1);
    expect(r1.exitCode).toBe(6);
    expect(r1.stderr).toMatch(/window closed 1d00h ago/);
    const late2 = await shipmentReadyFor(org, 2, ago(27 * HOUR));
    const r2 = await upload(org, late2, "nested", 2, "--json");
    expect(r2.exitCode).toBe(6);
    expect(r2.stderr).toMatch(/window closed 3h\d\dm ago/);
    expect(JSON.parse(r2.stdout)).toMatchObject({ result: "refused", bytes_sent: 0 });
    expect(await reportPosts(org)).toHaveLength(0);
  });

  it("window open: shows the time left and stores", async () => {
    const org = await sb.newOrg();
    const id = await shipmentReadyFor(org, 2, ago(20 * HOUR));
    const r = await upload(org, id, "nested", 2);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/window is open: (3h\d\dm|4h00m) left/);
  });

  it("the window is judged on the service's clock (its Date header): two days ahead of ours, refused before sending", async () => {
    const org = await sb.newOrg();
    const id = await shipmentReadyFor(org, 2);
    await org.control.offsetClock(2 * DAY);
    const r = await upload(org, id, "nested", 2);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toMatch(/window closed (1d00h|23h59m) ago/);
    expect(r.stderr).toContain("nothing sent");
    expect(await reportPosts(org)).toHaveLength(0);
  });

  it("an unknown shipment is exit 6 without sending", async () => {
    const org = await sb.newOrg();
    const r = await upload(org, 999_999, "nested", 1, "--json");
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toContain("not found");
    expect(await reportPosts(org)).toHaveLength(0);
    // not_found with the read that found nothing, as `shipment get` says it (it said "rejected", without them).
    const error = (JSON.parse(r.stdout) as { error: Record<string, unknown> }).error;
    expect(error).toMatchObject({ code: "not_found", exit_code: 6, method: "GET", path: "/api/v1/shipments/999999", http_status: 404 });
  });
});

describe("refused by the service", () => {
  it("closed moments ago by the service's clock (within the skew margin): uploads, and the refusal is explained, exit 6", async () => {
    const org = await sb.newOrg();
    const [id] = await createShipments(org, 1);
    await org.control.setStatus(id!, "Arrived", "2025-01-01 00:00:00");
    // Frozen 60 s after the 24-hour window closed: too close to the edge to refuse without asking the service.
    await org.control.setClock("2025-01-02 00:01:00");
    const r = await upload(org, id!, "nested", 2, "--json");
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toContain("the service refused the report");
    expect(r.stderr).toContain("before sending: the set 2 window closed moments ago");
    expect(await reportPosts(org)).toHaveLength(1);
    const error = (JSON.parse(r.stdout) as { error: Record<string, unknown> }).error;
    // The service's 422 is validation_failed with its field errors, as every command says it (it said "rejected").
    expect(error).toMatchObject({ code: "validation_failed", exit_code: 6, method: "POST", http_status: 422, errors: expect.any(Object) });
  });

  it("when the shipment cannot be read first, uploads anyway and explains the refusal", async () => {
    const org = await sb.newOrg();
    const [draft] = await createShipments(org, 1);
    await org.control.fault({ method: "GET", path: `/api/v1/shipments/${draft}`, kind: "502", count: 10 });
    const r = await upload(org, draft!, "nested", 1);
    expect(r.stderr).toContain("could not be read first");
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toContain("the service refused the report");
    expect(await reportPosts(org)).toHaveLength(1);
  });

  it("a token the service refuses is exit 4", async () => {
    const org = await sb.newOrg();
    const id = await shipmentReadyFor(org, 1);
    const r = await runCli(["report", "upload", String(id), fixture("photos/nested"), "--set", "1"], {
      sandbox: { url: org.url, token: "wrong-token" },
    });
    expect(r.exitCode).toBe(4);
  });
});
