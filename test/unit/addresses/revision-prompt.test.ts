// Issue 12, point 7: the question about a recommended revision is the same in `address add` and in a CSV batch, and
// Enter answers No in both (nothing the person did not choose is stored); the revision is shown once, as the diff.
import { describe, expect, it } from "vitest";
import { parseAdd, runAdd } from "../../../src/commands/address/add.js";
import { AddressSet, verifyAddresses } from "../../../src/batch/address-set.js";
import { addressKey } from "../../../src/contract/index.js";
import { CancelledError } from "../../../src/errors.js";
import type { Prompter } from "../../../src/prompter.js";
import { createTheme } from "../../../src/output/theme.js";
import { GALLERY, GALLERY_FLAGS } from "../../helpers/gallery.js";
import { testDeps } from "../../helpers/deps.js";
import { httpStubs, reply } from "../../helpers/http-stubs.js";

const MESSAGE = 'A corrected address is recommended: line_1 "1 Main Street" -> "1 Main St".';
const VERIFY = "POST /api/v1/addresses/verify";
const recommends = reply.json(400, { ...GALLERY, line_1: "1 Main St", line_2: null, recommended: true, status: 3, message: MESSAGE });
const NO_ADDRESSES = {
  data: [],
  links: { first: "http://127.0.0.1:9/api/v1/addresses?page=1", last: null, prev: null, next: null },
  meta: { current_page: 1, from: null, path: "http://127.0.0.1:9/api/v1/addresses", per_page: 50, to: null },
};

/** A person who presses Enter at every question: each gets its default. */
function pressesEnter(): Prompter & { defaults: Array<boolean | undefined> } {
  const defaults: Array<boolean | undefined> = [];
  const refuse = () => Promise.reject(new Error("unexpected prompt"));
  return {
    defaults,
    confirm: async (_message, options) => {
      defaults.push(options?.default);
      return options?.default ?? false;
    },
    input: refuse,
    password: refuse,
    select: refuse,
  };
}

describe("the recommended-revision prompt", () => {
  it("address add: Enter answers No, nothing is stored, and the revision is shown once (the diff, not the message too)", async () => {
    const t = testDeps({ tty: true, http: httpStubs().on("GET /api/v1/addresses", reply.json(200, NO_ADDRESSES)).on(VERIFY, recommends) });
    const person = pressesEnter();
    t.deps.prompter = person;
    await expect(runAdd(parseAdd([], GALLERY_FLAGS), t.deps)).rejects.toBeInstanceOf(CancelledError);
    expect(person.defaults).toEqual([false]);
    expect(t.http.sent("POST /api/v1/addresses")).toEqual([]);
    expect(t.io.stderr()).toContain("line_1: 1 Main Street -> 1 Main St");
    expect(t.io.stderr()).not.toContain(MESSAGE);
  });

  it("a CSV batch asks the same question with the same default", async () => {
    const t = testDeps({ tty: true, http: httpStubs().on(VERIFY, recommends) });
    const person = pressesEnter();
    const addresses = new AddressSet();
    addresses.add(addressKey(GALLERY), GALLERY, 2);
    const shown: string[] = [];
    const decisions = await verifyAddresses(addresses, {
      api: await t.deps.api(),
      concurrency: 1,
      call: {},
      acceptRecommended: false,
      prompter: person,
      theme: createTheme(false),
      alert: (text) => shown.push(text),
    });
    expect(person.defaults).toEqual([false]);
    expect(decisions.get(addressKey(GALLERY))).toHaveProperty("fail");
    expect(shown.join("")).toContain("line_1: 1 Main Street -> 1 Main St");
  });
});
