import { describe, expect, it } from "vitest";
import { parseGet, runGet } from "../../../../src/commands/address/get.js";
import { GALLERY } from "../../../helpers/gallery.js";
import { testDeps } from "../../../helpers/deps.js";
import { httpStubs, reply } from "../../../helpers/http-stubs.js";
import { UNCONFIRMED_TABLES as UNCONFIRMED } from "../../../../src/config/profile-tables.js";

const STORED = { id: 12, ...GALLERY, line_2: null, created_at: "2025-01-02 03:04:05", updated_at: "2025-01-02 03:04:05" };

const stored = () => httpStubs().on("GET /api/v1/addresses/12", reply.json(200, { data: STORED }));

describe("address get", () => {
  it("prints the service's record as JSON", async () => {
    const t = testDeps({ json: true, http: stored() });
    await runGet(parseGet(["12"]), t.deps);
    expect(JSON.parse(t.io.stdout())).toEqual(STORED);
    expect(t.http.requests.map((r) => r.route)).toEqual(["GET /api/v1/addresses/12"]);
  });

  it("shows a table with the country by name and times in UTC", async () => {
    const t = testDeps({ http: stored() });
    await runGet(parseGet(["12"]), t.deps);
    const out = t.io.stdout();
    expect(out).toMatch(/^FIELD\s+VALUE$/m);
    expect(out).toMatch(/^country\s+1 \(United States\)$/m);
    expect(out).toMatch(/^created\s+2025-01-02 03:04:05 UTC$/m);
  });

  it("shows the bare integer when the table is not confirmed", async () => {
    const t = testDeps({ tables: UNCONFIRMED, http: stored() });
    await runGet(parseGet(["12"]), t.deps);
    expect(t.io.stdout()).toMatch(/^country\s+1$/m);
  });
});
