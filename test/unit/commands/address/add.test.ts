import { describe, expect, it } from "vitest";
import { parseAdd, runAdd } from "../../../../src/commands/address/add.js";
import { parseUpdate, runUpdate } from "../../../../src/commands/address/update.js";
import { CancelledError, RejectedError } from "../../../../src/errors.js";
import { GALLERY, GALLERY_FLAGS } from "../../../helpers/gallery.js";
import { testDeps, type TestDepsOptions } from "../../../helpers/deps.js";
import { httpStubs, reply, type HttpStubs } from "../../../helpers/http-stubs.js";
import type { WireResult } from "../../../../src/api/transport.js";

const REVISED = { ...GALLERY, line_1: "1 Main St" };
const VERIFY = "POST /api/v1/addresses/verify";
const LIST = "GET /api/v1/addresses";
const CREATE = "POST /api/v1/addresses";
const UPDATE = "PATCH /api/v1/addresses/12";
const valid = reply.json(200, {});
const recommends = reply.json(400, { ...REVISED, line_2: null, recommended: true, status: 3, message: "Address corrected" });
const invalid = reply.json(400, { ...GALLERY, recommended: false, status: 2, message: "PO boxes are not accepted" });

const created = reply.json(201, { id: 41 });
const NO_ADDRESSES = {
  data: [],
  links: { first: "http://127.0.0.1:9/api/v1/addresses?page=1", last: null, prev: null, next: null },
  meta: { current_page: 1, from: null, path: "http://127.0.0.1:9/api/v1/addresses", per_page: 50, to: null },
};

/** `add`'s requests: no address is stored yet (the look for the same one, stored-match.ts, finds none), then `answers`. */
function adding(...answers: Array<[string, WireResult]>) {
  const http = httpStubs().on(LIST, reply.json(200, NO_ADDRESSES));
  for (const [route, answer] of answers) http.on(route, answer);
  return http;
}

function withStore(http: HttpStubs, options: TestDepsOptions = {}) {
  return testDeps({ ...options, http });
}

describe("address add", () => {
  it("verifies, stores, and prints the new id alone on stdout", async () => {
    const t = withStore(adding([VERIFY, valid], [CREATE, created]));
    await runAdd(parseAdd([], GALLERY_FLAGS), t.deps);
    expect(t.http.requests.map((r) => r.route)).toEqual([LIST, VERIFY, CREATE]);
    expect(t.http.sent(CREATE)[0]!.json()).toEqual(GALLERY);
    expect(t.io.stdout()).toBe("41\n");
    expect(t.io.stderr()).toBe("Stored address 41.\n");
  });

  it("prints {id, address} with --json", async () => {
    const t = withStore(adding([VERIFY, valid], [CREATE, created]), { json: true });
    await runAdd(parseAdd([], GALLERY_FLAGS), t.deps);
    expect(JSON.parse(t.io.stdout())).toEqual({ id: 41, address: GALLERY, already_stored: false });
  });

  it("skips verification with --no-verify, and warns", async () => {
    const t = withStore(adding([CREATE, created]));
    await runAdd(parseAdd([], { ...GALLERY_FLAGS, verify: false }), t.deps);
    expect(t.http.requests.map((r) => r.route)).toEqual([LIST, CREATE]);
    expect(t.io.stderr()).toContain("not verified (--no-verify)");
  });

  it("stores nothing when the service finds the address invalid (exit 6)", async () => {
    const t = withStore(adding([VERIFY, invalid]));
    const err = await runAdd(parseAdd([], GALLERY_FLAGS), t.deps).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RejectedError);
    expect((err as Error).message).toBe("the service found the address invalid: PO boxes are not accepted; nothing was stored");
    expect(t.http.sent(CREATE)).toEqual([]);
  });

  it("stores the recommended revision with --accept-recommended", async () => {
    const t = withStore(adding([VERIFY, recommends], [CREATE, created]));
    await runAdd(parseAdd([], { ...GALLERY_FLAGS, acceptRecommended: true }), t.deps);
    expect(t.http.sent(CREATE)[0]!.json()).toEqual(REVISED);
    expect(t.io.stderr()).toContain("  line_1: 1 Main Street -> 1 Main St\n");
  });

  it("without a terminal and without the flag, stops with exit 6 naming --accept-recommended", async () => {
    const t = withStore(adding([VERIFY, recommends]));
    const err = await runAdd(parseAdd([], GALLERY_FLAGS), t.deps).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RejectedError);
    expect((err as RejectedError).hint).toContain("--accept-recommended");
    expect(t.io.stderr()).toContain("line_1: 1 Main Street -> 1 Main St");
    expect(t.http.sent(CREATE)).toEqual([]);
    expect(t.prompter.asked).toEqual([]);
  });

  it("asks at a terminal, and stores the revision after a yes", async () => {
    const t = withStore(adding([VERIFY, recommends], [CREATE, created]), { tty: true, answers: [true] });
    await runAdd(parseAdd([], GALLERY_FLAGS), t.deps);
    expect(t.prompter.asked).toEqual(["Use the recommended address?"]);
    expect(t.http.sent(CREATE)[0]!.json()).toEqual(REVISED);
  });

  it("stores nothing after a no at the prompt (exit 3)", async () => {
    const t = withStore(adding([VERIFY, recommends]), { tty: true, answers: [false] });
    await expect(runAdd(parseAdd([], GALLERY_FLAGS), t.deps)).rejects.toBeInstanceOf(CancelledError);
    expect(t.http.sent(CREATE)).toEqual([]);
  });

  it("refuses a revision that breaks the contract instead of sending it", async () => {
    const t = withStore(adding([VERIFY, reply.json(400, { ...GALLERY, line_1: "x".repeat(40), recommended: true, status: 3, message: "Corrected" })]));
    const err = await runAdd(parseAdd([], { ...GALLERY_FLAGS, acceptRecommended: true }), t.deps).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RejectedError);
    expect((err as Error).message).toContain("line_1 may be at most 35 characters");
    expect(t.http.sent(CREATE)).toEqual([]);
  });
});

describe("address update", () => {
  it("verifies, then PATCHes the full address; JSON {id, address}", async () => {
    const t = withStore(httpStubs().on(VERIFY, valid).on(UPDATE, reply.empty()), { json: true });
    await runUpdate(parseUpdate(["12"], GALLERY_FLAGS), t.deps);
    expect(t.http.sent(UPDATE)[0]!.json()).toEqual(GALLERY);
    expect(JSON.parse(t.io.stdout())).toEqual({ id: 12, address: GALLERY });
    expect(t.io.stderr()).toBe("Updated address 12.\n");
  });

  it("prints nothing on stdout for people", async () => {
    const t = withStore(httpStubs().on(VERIFY, valid).on(UPDATE, reply.empty()));
    await runUpdate(parseUpdate(["12"], GALLERY_FLAGS), t.deps);
    expect(t.io.stdout()).toBe("");
  });

  it("follows the same revision rules as add", async () => {
    const t = withStore(httpStubs().on(VERIFY, recommends));
    await expect(runUpdate(parseUpdate(["12"], GALLERY_FLAGS), t.deps)).rejects.toBeInstanceOf(RejectedError);
    expect(t.http.sent(UPDATE)).toEqual([]);
  });
});
