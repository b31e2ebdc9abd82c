// `shipctl report upload <id> <folder>` against the sandbox: what exactly arrives, and what never leaves.
import { cpSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { shipmentReadyFor } from "./setup.js";

let sb: TestSandbox;
beforeAll(async () => {
  // A lost answer keeps its report in flight until the sandbox's apply bound has passed: a short one keeps reruns quick.
  sb = await startTestSandbox({ applyMaxMs: 1000 });
});
afterAll(() => sb.close());

const SIDES = ["front", "back", "top", "bottom", "left", "right"];
const PARTS = [...SIDES.map(() => "box[]"), ...SIDES.map(() => "art[]")];

describe("report upload: one folder", () => {
  it("sends box[] x6 then art[] x6 in side order, with types by content (nested layout)", async () => {
    const org = await sb.newOrg();
    const id = await shipmentReadyFor(org, 1);
    const r = await runCli(["report", "upload", String(id), fixture("photos/nested"), "--set", "1", "--json"], { sandbox: org });
    expect(r.stderr).toContain("window is open");
    expect(r.exitCode).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ shipment_id: id, set: 1, result: "stored" });
    expect(out.photos.map((p: { file: string }) => p.file)).toEqual([...SIDES.map((s) => `box/${s}.jpg`), ...SIDES.map((s) => `art/${s}.png`)]);

    const [received] = await org.control.requests({ method: "POST", path: `/api/v1/reports/${id}/1` });
    expect(received!.parts).toEqual(PARTS);
    expect(received!.status).toBe(201);
    const [report] = await org.control.reports();
    expect(report!.photos.map((p) => `${p.part} ${p.filename} ${p.content_type} ${p.detected}`)).toEqual([
      ...SIDES.map((s) => `box[] box-${s}.jpg image/jpeg jpeg`),
      ...SIDES.map((s) => `art[] art-${s}.png image/png png`),
    ]);
    expect((await org.control.setStatus(id, "Filed")).status).toBe(8);
  });

  it("with the service's clock at 2025-01-01 (ticking) and the shipment Arrived then, set 2 uploads: the window is open on its clock", async () => {
    const org = await sb.newOrg();
    await org.control.setClock("2025-01-01 00:00:00", { ticking: true });
    const id = await shipmentReadyFor(org, 2, "2025-01-01 00:00:00");
    const r = await runCli(["report", "upload", String(id), fixture("photos/nested"), "--set", "2"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/window is open: (23h\d\dm|1d00h) left/);
    const [received] = await org.control.requests({ method: "POST", path: `/api/v1/reports/${id}/2` });
    expect(received!.status).toBe(201);
  });

  it("reads flat names and sends a PNG named .jpg as PNG", async () => {
    const org = await sb.newOrg();
    const id = await shipmentReadyFor(org, 2);
    const r = await runCli(["report", "upload", String(id), fixture("photos/renamed-png"), "--set", "2"], { sandbox: org });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain("box-front.jpg is a PNG file despite its name");
    const [report] = await org.control.reports();
    expect(report!.set).toBe(2);
    expect(report!.photos[0]).toMatchObject({ part: "box[]", filename: "box-front.png", content_type: "image/png", detected: "png" });
    // stdout is the photo table, nothing else.
    expect(r.stdout.split("\n")[0]).toMatch(/^\s*#\s+GROUP\s+SIDE\s+TYPE\s+SIZE/);
  });

  it("--fit sends a copy under the limit and says what it changed; the original stays", async () => {
    const org = await sb.newOrg();
    const id = await shipmentReadyFor(org, 1);
    const original = readFileSync(fixture("photos/oversized/box/front.jpg"));
    const r = await runCli(["report", "upload", String(id), fixture("photos/oversized"), "--set", "1", "--fit", "--json"], { sandbox: org });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/Fitted .*box\/front\.jpg: 1\.12 MiB -> \d+ KiB/);
    const out = JSON.parse(r.stdout);
    expect(out.fitted).toEqual([{ file: "box/front.jpg", from_bytes: original.length, to_bytes: expect.any(Number) }]);
    const [report] = await org.control.reports();
    expect(report!.photos[0]!.size).toBe(out.fitted[0].to_bytes);
    expect(report!.photos[0]!.size).toBeLessThanOrEqual(1_000_000);
    expect(readFileSync(fixture("photos/oversized/box/front.jpg")).equals(original)).toBe(true);
  });

  it("--by-order without a terminal needs --yes (exit 2, nothing sent), and with it sends in natural order", async () => {
    const org = await sb.newOrg();
    const id = await shipmentReadyFor(org, 1);
    const no = await runCli(["report", "upload", String(id), fixture("photos/by-order"), "--set", "1", "--by-order"], { sandbox: org });
    expect(no.exitCode).toBe(2);
    expect(no.stderr).toContain("--yes");
    expect(no.stderr).toMatch(/box\s+front\s+box\/IMG_2\.jpg/);
    expect(await org.control.requests({ method: "POST", path: `/api/v1/reports/${id}/1` })).toHaveLength(0);
    // --quiet keeps the table the error asks to check (issue 12).
    const quiet = await runCli(["report", "upload", String(id), fixture("photos/by-order"), "--set", "1", "--by-order", "--quiet"], { sandbox: org });
    expect(quiet.exitCode).toBe(2);
    expect(quiet.stderr).toMatch(/box\s+front\s+box\/IMG_2\.jpg/);

    const yes = await runCli(["report", "upload", String(id), fixture("photos/by-order"), "--set", "1", "--by-order", "--yes", "--json"], { sandbox: org });
    expect(yes.exitCode).toBe(0);
    const files = JSON.parse(yes.stdout).photos.map((p: { file: string }) => p.file);
    expect(files.slice(0, 6)).toEqual(["box/IMG_2.jpg", "box/IMG_9.jpg", "box/IMG_10.jpg", "box/IMG_11.jpg", "box/IMG_20.jpg", "box/IMG_100.jpg"]);
    expect((await org.control.reports())[0]!.photos.map((p) => p.part)).toEqual(PARTS);
  });

  it("--preview writes a self-contained HTML sheet and a PNG, and sends nothing", async () => {
    const org = await sb.newOrg();
    const id = await shipmentReadyFor(org, 1);
    const dir = tempDir("shipctl-preview-");
    const html = join(dir, "sheet.html");
    const r = await runCli(["report", "upload", String(id), fixture("photos/flat"), "--set", "1", "--preview", html], { sandbox: org });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain("nothing was sent");
    const text = readFileSync(html, "utf8");
    expect(text.match(/<img src="data:image\/jpeg;base64,/g)).toHaveLength(12);
    expect(text).not.toMatch(/src="(https?|file):/);
    const labels = [...text.matchAll(/<b>(\d+)\. (box|art) · (\w+)<\/b>/g)].map((m) => `${m[1]} ${m[2]} ${m[3]}`);
    expect(labels).toEqual([...SIDES.map((s, i) => `${i + 1} box ${s}`), ...SIDES.map((s, i) => `${i + 7} art ${s}`)]);

    const png = join(dir, "sheet.png");
    const p = await runCli(["report", "upload", String(id), fixture("photos/by-order"), "--set", "1", "--by-order", "--preview", png], { sandbox: org });
    expect(p.exitCode).toBe(0);
    expect(existsSync(png)).toBe(true);
    expect(readFileSync(png).subarray(1, 4).toString("latin1")).toBe("PNG");
    // Only the test's own shipment creation reached the service: --preview neither reads nor sends.
    expect((await org.control.requests()).map((q) => `${q.method} ${q.path}`)).toEqual(["POST /api/v1/shipments"]);
  });

  it("--preview inside the report folder is refused before it is written: the run without --preview would read it", async () => {
    const org = await sb.newOrg();
    const id = await shipmentReadyFor(org, 1);
    const folder = join(tempDir("shipctl-preview-"), "camera");
    cpSync(fixture("photos/by-order"), folder, { recursive: true });
    const html = join(folder, "sheet.html");
    const r = await runCli(["report", "upload", String(id), folder, "--set", "1", "--by-order", "--yes", "--preview", html], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`--preview ${html}: it is inside the report folder`);
    expect(existsSync(html)).toBe(false);
    expect((await org.control.requests()).map((q) => `${q.method} ${q.path}`)).toEqual(["POST /api/v1/shipments"]);
  });

  it("names a lost answer that arrived as stored (reset after the report was applied)", async () => {
    const org = await sb.newOrg();
    const id = await shipmentReadyFor(org, 1);
    await org.control.fault({ method: "POST", path: `/api/v1/reports/${id}/1`, kind: "reset-after" });
    const r = await runCli(["report", "upload", String(id), fixture("photos/nested"), "--set", "1", "--json"], { sandbox: org });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain("the answer was lost");
    expect(JSON.parse(r.stdout).result).toBe("stored");
    expect(await org.control.requests({ method: "POST", path: `/api/v1/reports/${id}/1` })).toHaveLength(1);
    expect(await org.control.reports()).toHaveLength(1);
  });

  // Reset as the request arrives: failed when the body had not left whole (not applied), else in flight until its
  // settle time, which the rerun (sharing the config folder's ledger, as a user's does) waits for before sending.
  it("a lost answer that did not arrive is exit 7, and the rerun stores it once", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const id = await shipmentReadyFor(org, 1);
    await org.control.fault({ method: "POST", path: `/api/v1/reports/${id}/1`, kind: "reset-before" });
    const r = await runCli(["report", "upload", String(id), fixture("photos/nested"), "--set", "1"], { sandbox: org, configDir });
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toMatch(/not stored|not sent again/i);
    expect(r.stderr).toContain(`shipctl report upload ${id} ${fixture("photos/nested")} --set 1`);
    expect(await org.control.reports()).toHaveLength(0);
    const again = await runCli(["report", "upload", String(id), fixture("photos/nested"), "--set", "1"], { sandbox: org, configDir });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(await org.control.reports()).toHaveLength(1);
    expect(await org.control.requests({ method: "POST", path: `/api/v1/reports/${id}/1` })).toHaveLength(2);
  });

  it("a 500 on the upload ends it: the shipment read back still Delivered is failed (exit 7), not sent again in the run; the rerun sends it", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const id = await shipmentReadyFor(org, 1);
    await org.control.fault({ method: "POST", path: `/api/v1/reports/${id}/1`, kind: "500" });
    const args = ["report", "upload", String(id), fixture("photos/nested"), "--set", "1", "--json"];
    const r = await runCli(args, { sandbox: org, configDir });
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain("not stored: the service answered 500, and the shipment is still Delivered, so the report did not arrive");
    expect(JSON.parse(r.stdout)).toMatchObject({ result: "failed", settle_at: null });
    expect(await org.control.requests({ method: "POST", path: `/api/v1/reports/${id}/1` })).toHaveLength(1);

    const again = await runCli([...args, "--no-wait"], { sandbox: org, configDir });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ result: "stored" });
    expect(await org.control.reports()).toHaveLength(1);
    expect(await org.control.requests({ method: "POST", path: `/api/v1/reports/${id}/1` })).toHaveLength(2);
  });

  it("a 500 after the service stored it: read back as stored, in the same run", async () => {
    const org = await sb.newOrg();
    const id = await shipmentReadyFor(org, 1);
    await org.control.fault({ method: "POST", path: `/api/v1/reports/${id}/1`, kind: "500-after" });
    const r = await runCli(["report", "upload", String(id), fixture("photos/nested"), "--set", "1", "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ result: "stored" });
    expect(await org.control.reports()).toHaveLength(1);
  });

  it("a gateway's 502 on the upload: the shipment read back still Delivered is unknown (exit 7), in flight until its settle time", async () => {
    const org = await sb.newOrg();
    const id = await shipmentReadyFor(org, 1);
    await org.control.fault({ method: "POST", path: `/api/v1/reports/${id}/1`, kind: "502" });
    const r = await runCli(["report", "upload", String(id), fixture("photos/nested"), "--set", "1", "--json"], { sandbox: org });
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain("still Delivered: the service may still be applying it until");
    expect(JSON.parse(r.stdout)).toMatchObject({ result: "unknown", settle_at: expect.stringMatching(/^\d{4}-/) });
    expect(await org.control.requests({ method: "POST", path: `/api/v1/reports/${id}/1` })).toHaveLength(1);
  });
});
