import { describe, expect, it } from "vitest";
import { parseVerify, runVerify } from "../../../../src/commands/address/verify.js";
import { ExitCode, UnavailableError, UsageError } from "../../../../src/errors.js";
import { GALLERY, GALLERY_FLAGS } from "../../../helpers/gallery.js";
import { testDeps } from "../../../helpers/deps.js";
import { httpStubs, reply } from "../../../helpers/http-stubs.js";

const REVISED = { ...GALLERY, line_1: "1 Main St", post_code: "98101-1234" };
const VERIFY = "POST /api/v1/addresses/verify";
const valid = () => httpStubs().on(VERIFY, reply.json(200, {}));
const recommends = () => httpStubs().on(VERIFY, reply.json(400, { ...REVISED, recommended: true, status: 3, message: "Address corrected" }));

describe("address verify", () => {
  it("exits 0 and says valid for an address the service accepts", async () => {
    const t = testDeps({ http: valid() });
    expect(await runVerify(parseVerify([], GALLERY_FLAGS), t.deps)).toBe(ExitCode.Ok);
    expect(t.io.stdout()).toBe("valid: the service verified the address\n");
    expect(t.http.sent(VERIFY)[0]!.json()).toEqual(GALLERY);
  });

  it("prints the verdict as JSON with --json", async () => {
    const t = testDeps({ json: true, http: valid() });
    await runVerify(parseVerify([], GALLERY_FLAGS), t.deps);
    expect(JSON.parse(t.io.stdout())).toEqual({
      valid: true,
      status: null,
      status_name: "Valid",
      recommended: false,
      message: null,
      address: GALLERY,
      revised: null,
      changes: [],
    });
  });

  it("exits 6 for an invalid address, with the service's message, and still prints JSON", async () => {
    const t = testDeps({
      json: true,
      http: httpStubs().on(VERIFY, reply.json(400, { ...GALLERY, recommended: false, status: 2, message: "PO boxes are not accepted" })),
    });
    expect(await runVerify(parseVerify([], GALLERY_FLAGS), t.deps)).toBe(ExitCode.Rejected);
    const out = JSON.parse(t.io.stdout());
    expect(out).toMatchObject({ valid: false, status: 2, status_name: "Invalid", recommended: false, message: "PO boxes are not accepted", revised: null });
    expect(t.io.stderr()).toContain("will not accept this address");
  });

  it("exits 6 for a recommended revision and shows it field by field", async () => {
    const t = testDeps({ http: recommends() });
    expect(await runVerify(parseVerify([], GALLERY_FLAGS), t.deps)).toBe(ExitCode.Rejected);
    expect(t.io.stdout()).toBe(
      "revision recommended (status 3 Recommended): Address corrected\n" +
        "  line_1:    1 Main Street -> 1 Main St\n" +
        "  post_code: 98101 -> 98101-1234\n",
    );
    expect(t.io.stderr()).toContain("--accept-recommended");
  });

  it("lists the changes in the JSON of a recommended revision", async () => {
    const t = testDeps({ json: true, http: recommends() });
    await runVerify(parseVerify([], GALLERY_FLAGS), t.deps);
    const out = JSON.parse(t.io.stdout());
    expect(out.revised).toEqual(REVISED);
    expect(out.changes).toEqual([
      { field: "line_1", from: "1 Main Street", to: "1 Main St" },
      { field: "post_code", from: "98101", to: "98101-1234" },
    ]);
  });

  it("treats a verifier still rate limited after the client's retries as unavailable (exit 7)", async () => {
    // The first answer and the client's retries all say rate limited.
    const t = testDeps({ retries: 1, http: httpStubs().on(VERIFY, reply.json(400, { ...GALLERY, recommended: false, status: 0, message: "Rate limited" }), { times: 2 }) });
    await expect(runVerify(parseVerify([], GALLERY_FLAGS), t.deps)).rejects.toBeInstanceOf(UnavailableError);
    expect(t.io.stdout()).toBe("");
  });

  it("sends nothing when the input is invalid", async () => {
    const t = testDeps();
    await expect(runVerify(parseVerify([], { ...GALLERY_FLAGS, email: "nobody" }), t.deps)).rejects.toBeInstanceOf(UsageError);
    expect(t.http.requests).toEqual([]);
  });

  it("tells the user on stderr when the client waits to retry", async () => {
    const t = testDeps({
      http: httpStubs()
        .on(VERIFY, reply.json(400, { ...GALLERY, recommended: false, status: 0, message: "Rate limited" }))
        .on(VERIFY, reply.json(200, {})),
    });
    await runVerify(parseVerify([], GALLERY_FLAGS), t.deps);
    expect(t.io.stderr()).toMatch(/^Address verification: 400: address verifier rate limited \(status 0\); retrying in \d+\.\d s \(retry 1\)\n$/);
  });
});
