// Post codes that fit (issue 26): leading zeros put back only where the padded code fits the row's region, and every
// code checked against its country's format and (US) its state, alike for CSV cells, flags and JSON files.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { request } from "undici";
import { runCli, tempDir, type CliTarget } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { GALLERY, GALLERY_ARGS } from "../../helpers/seed.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

/** The addresses the sandbox stored, as it answers GET /api/v1/addresses. */
async function stored(target: CliTarget): Promise<Array<{ name: string; post_code: string }>> {
  const res = await request(`${target.url}/api/v1/addresses`, { headers: { authorization: `Bearer ${target.token}`, accept: "application/json" } });
  return ((await res.body.json()) as { data: Array<{ name: string; post_code: string }> }).data;
}

const CSV = [
  "reference,name,email,phone,line_1,line_2,city,region,post_code,country",
  "SF,Bay Gallery,bay@example.com,+14155550100,1 Market Street,,San Francisco,CA,9410,US",
  "BOS,Harbor Arts,crates@harborarts.example,+16175550134,45 Atlantic Avenue,,Boston,MA,2108,US",
  "B1,Kunsthalle Nord,logistik@kunsthalle.example,+4930901820,Unter den Linden 5,,Berlin,Berlin,101170,DE",
  "B2,Galerie Mitte,info@mitte.example,+4930901821,Auguststrasse 1,,Berlin,Berlin,ABCDE,DE",
  "ROM,Museo Corso,registrar@museo.example,+390669821234,Via del Corso 101,,Roma,Lazio,750041,IT",
].join("\n");

describe("post codes in a CSV file", () => {
  it("puts back Boston's 2108 -> 02108 and refuses 9410 with CA, DE 101170 and ABCDE and IT 750041, naming cell and region", async () => {
    const org = await sb.newOrg();
    const path = join(tempDir(), "addresses.csv");
    writeFileSync(path, CSV + "\n");
    const r = await runCli(["address", "add", "--csv", path, "--skip-invalid", "--json"], { sandbox: org });
    expect(r.stderr).toContain('row 2, post_code: post_code "9410" (09410 with the leading zeros a spreadsheet drops) is not a ZIP of CA: ZIP codes of CA begin 900-961');
    expect(r.stderr).toContain('row 4, post_code: post_code "101170" is not a post code of DE: write 5 digits');
    expect(r.stderr).toContain('row 5, post_code: post_code "ABCDE" is not a post code of DE');
    expect(r.stderr).toContain('row 6, post_code: post_code "750041" is not a post code of IT');
    expect((await stored(org)).map((a) => [a.name, a.post_code])).toEqual([["Harbor Arts", "02108"]]);
  });
});

describe("post codes from flags and JSON files agree with CSV", () => {
  it("address verify --post-code 9410 --region CA is refused before anything is sent, naming the flag and the state", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["address", "verify", ...GALLERY_ARGS, "--city", "San Francisco", "--region", "CA", "--post-code", "9410"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('post_code (--post-code): "9410" (09410 with the leading zeros a spreadsheet drops) is not a ZIP of CA');
    expect(await org.control.requests({ path: "/api/v1/addresses/verify" })).toHaveLength(0);
  });

  it("address add --post-code 2108 --region MA stores 02108, with a note", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["address", "add", ...GALLERY_ARGS, "--name", "Harbor Arts", "--city", "Boston", "--region", "MA", "--post-code", "2108"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('Note: --post-code "2108" read as 02108');
    expect((await stored(org)).map((a) => a.post_code)).toEqual(["02108"]);
  });

  it("address verify --country DE --post-code ABCDE is refused", async () => {
    const org = await sb.newOrg();
    const args = [...GALLERY_ARGS, "--country", "DE", "--region", "Berlin", "--city", "Berlin", "--phone", "+4930901820", "--post-code", "ABCDE"];
    const r = await runCli(["address", "verify", ...args], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('post_code (--post-code): "ABCDE" is not a post code of DE');
  });

  it("shipment create --file: a destination 9410 in CA and a fulfillment DE 101170 are refused, nothing sent", async () => {
    const org = await sb.newOrg();
    const path = join(tempDir(), "shipment.json");
    const shipment = {
      title: "Blue Study", value: 1200, length: 30, height: 24, depth: 3, service: 1,
      fulfillment_address: { ...GALLERY, city: "Berlin", region: "Berlin", country: "DE", phone: "+4930901820", post_code: "101170" },
      destination_address: { ...GALLERY, city: "San Francisco", region: "CA", post_code: "9410" },
    };
    writeFileSync(path, JSON.stringify(shipment));
    const r = await runCli(["shipment", "create", "--file", path], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('destination_address.post_code: "9410" (09410 with the leading zeros a spreadsheet drops) is not a ZIP of CA');
    expect(r.stderr).toContain('fulfillment_address.post_code: "101170" is not a post code of DE');
    expect(await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).toHaveLength(0);
  });
});

describe("each case gives the same verdict from flags as from a JSON file", () => {
  const cases = [
    { post_code: "9410", city: "San Francisco", region: "CA", country: "US", says: "is not a ZIP of CA: ZIP codes of CA begin 900-961" },
    { post_code: "101170", city: "Berlin", region: "Berlin", country: "DE", phone: "+4930901820", says: "is not a post code of DE: write 5 digits" },
    { post_code: "ABCDE", city: "Berlin", region: "Berlin", country: "DE", phone: "+4930901820", says: "is not a post code of DE" },
  ];

  it.each(cases)("$country $post_code in $region: refused before anything is sent, both ways", async ({ says, ...fields }) => {
    const org = await sb.newOrg();
    const address = { ...GALLERY, ...fields };
    const file = join(tempDir(), "address.json");
    writeFileSync(file, JSON.stringify(address));
    const flags = ["--city", address.city, "--region", address.region, "--country", address.country, "--phone", address.phone, "--post-code", address.post_code];
    const fromFlags = await runCli(["address", "verify", ...GALLERY_ARGS, ...flags], { sandbox: org });
    const fromFile = await runCli(["address", "verify", "--file", file], { sandbox: org });
    for (const r of [fromFlags, fromFile]) {
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain(`"${address.post_code}"`);
      expect(r.stderr).toContain(says);
    }
    expect(await org.control.requests({ path: "/api/v1/addresses/verify" })).toHaveLength(0);
  });

  it("US 2108 in MA: stored as 02108 from a JSON file, as from flags and CSV", async () => {
    const org = await sb.newOrg();
    const file = join(tempDir(), "address.json");
    writeFileSync(file, JSON.stringify({ ...GALLERY, name: "Harbor Arts", city: "Boston", region: "MA", country: "US", post_code: "2108" }));
    const r = await runCli(["address", "add", "--file", file], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain("read as 02108");
    expect((await stored(org)).map((a) => a.post_code)).toEqual(["02108"]);
  });
});
