import { describe, expect, it } from "vitest";
import { parseAdd, runAdd } from "../../../../src/commands/address/add.js";
import { parseUpdate, runUpdate } from "../../../../src/commands/address/update.js";
import { CancelledError, RejectedError } from "../../../../src/errors.js";
import { GALLERY, GALLERY_FLAGS } from "../../../helpers/gallery.js";
import { testDeps, type TestDepsOptions } from "../../../helpers/deps.js";

const REVISED = { ...GALLERY, line_1: "1 Main St" };
const recommends = async () => ({
  valid: false as const,
  result: { ...REVISED, line_2: null, recommended: true, status: 3, message: "Address corrected" },
});
const invalid = async () => ({
  valid: false as const,
  result: { ...GALLERY, recommended: false, status: 2, message: "PO boxes are not accepted" },
});

const NO_ADDRESSES = {
  data: [],
  links: { first: "http://127.0.0.1:9/api/v1/addresses?page=1", last: null, prev: null, next: null },
  meta: { current_page: 1, from: null, path: "http://127.0.0.1:9/api/v1/addresses", per_page: 50, to: null },
};

function withStore(options: TestDepsOptions = {}) {
  return testDeps({
    ...options,
    // No address is stored yet: the look for the same address before storing (stored-match.ts) finds none.
    api: { listAddresses: async () => NO_ADDRESSES, createAddress: async () => ({ id: 41 }), updateAddress: async () => undefined, ...options.api },
  });
}

describe("address add", () => {
  it("verifies, stores, and prints the new id alone on stdout", async () => {
    const t = withStore({ api: { verifyAddress: async () => ({ valid: true }) } });
    await runAdd(parseAdd([], GALLERY_FLAGS), t.deps);
    expect(t.api.calls.map((c) => c.method)).toEqual(["listAddresses", "verifyAddress", "createAddress"]);
    expect(t.api.callsTo("createAddress")[0]![0]).toEqual(GALLERY);
    expect(t.io.stdout()).toBe("41\n");
    expect(t.io.stderr()).toBe("Stored address 41.\n");
  });

  it("prints {id, address} with --json", async () => {
    const t = withStore({ json: true, api: { verifyAddress: async () => ({ valid: true }) } });
    await runAdd(parseAdd([], GALLERY_FLAGS), t.deps);
    expect(JSON.parse(t.io.stdout())).toEqual({ id: 41, address: GALLERY, already_stored: false });
  });

  it("skips verification with --no-verify, and warns", async () => {
    const t = withStore();
    await runAdd(parseAdd([], { ...GALLERY_FLAGS, verify: false }), t.deps);
    expect(t.api.calls.map((c) => c.method)).toEqual(["listAddresses", "createAddress"]);
    expect(t.io.stderr()).toContain("not verified (--no-verify)");
  });

  it("stores nothing when the service finds the address invalid (exit 6)", async () => {
    const t = withStore({ api: { verifyAddress: invalid } });
    const err = await runAdd(parseAdd([], GALLERY_FLAGS), t.deps).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RejectedError);
    expect((err as Error).message).toBe("the service found the address invalid: PO boxes are not accepted; nothing was stored");
    expect(t.api.callsTo("createAddress")).toEqual([]);
  });

  it("stores the recommended revision with --accept-recommended", async () => {
    const t = withStore({ api: { verifyAddress: recommends } });
    await runAdd(parseAdd([], { ...GALLERY_FLAGS, acceptRecommended: true }), t.deps);
    expect(t.api.callsTo("createAddress")[0]![0]).toEqual(REVISED);
    expect(t.io.stderr()).toContain("  line_1: 1 Main Street -> 1 Main St\n");
  });

  it("without a terminal and without the flag, stops with exit 6 naming --accept-recommended", async () => {
    const t = withStore({ api: { verifyAddress: recommends } });
    const err = await runAdd(parseAdd([], GALLERY_FLAGS), t.deps).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RejectedError);
    expect((err as RejectedError).hint).toContain("--accept-recommended");
    expect(t.io.stderr()).toContain("line_1: 1 Main Street -> 1 Main St");
    expect(t.api.callsTo("createAddress")).toEqual([]);
    expect(t.prompter.asked).toEqual([]);
  });

  it("asks at a terminal, and stores the revision after a yes", async () => {
    const t = withStore({ tty: true, answers: [true], api: { verifyAddress: recommends } });
    await runAdd(parseAdd([], GALLERY_FLAGS), t.deps);
    expect(t.prompter.asked).toEqual(["Use the recommended address?"]);
    expect(t.api.callsTo("createAddress")[0]![0]).toEqual(REVISED);
  });

  it("stores nothing after a no at the prompt (exit 3)", async () => {
    const t = withStore({ tty: true, answers: [false], api: { verifyAddress: recommends } });
    await expect(runAdd(parseAdd([], GALLERY_FLAGS), t.deps)).rejects.toBeInstanceOf(CancelledError);
    expect(t.api.callsTo("createAddress")).toEqual([]);
  });

  it("refuses a revision that breaks the contract instead of sending it", async () => {
    const t = withStore({
      api: {
        verifyAddress: async () => ({
          valid: false,
          result: { ...GALLERY, line_1: "x".repeat(40), recommended: true, status: 3, message: "Corrected" },
        }),
      },
    });
    const err = await runAdd(parseAdd([], { ...GALLERY_FLAGS, acceptRecommended: true }), t.deps).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RejectedError);
    expect((err as Error).message).toContain("line_1 may be at most 35 characters");
    expect(t.api.callsTo("createAddress")).toEqual([]);
  });
});

describe("address update", () => {
  it("verifies, then PATCHes the full address; JSON {id, address}", async () => {
    const t = withStore({ json: true, api: { verifyAddress: async () => ({ valid: true }) } });
    await runUpdate(parseUpdate(["12"], GALLERY_FLAGS), t.deps);
    expect(t.api.callsTo("updateAddress")[0]!.slice(0, 2)).toEqual([12, GALLERY]);
    expect(JSON.parse(t.io.stdout())).toEqual({ id: 12, address: GALLERY });
    expect(t.io.stderr()).toBe("Updated address 12.\n");
  });

  it("prints nothing on stdout for people", async () => {
    const t = withStore({ api: { verifyAddress: async () => ({ valid: true }) } });
    await runUpdate(parseUpdate(["12"], GALLERY_FLAGS), t.deps);
    expect(t.io.stdout()).toBe("");
  });

  it("follows the same revision rules as add", async () => {
    const t = withStore({ api: { verifyAddress: recommends } });
    await expect(runUpdate(parseUpdate(["12"], GALLERY_FLAGS), t.deps)).rejects.toBeInstanceOf(RejectedError);
    expect(t.api.callsTo("updateAddress")).toEqual([]);
  });
});
