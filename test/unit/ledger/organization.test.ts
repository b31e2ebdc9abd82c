// An organization's ledger: one folder per base URL in the state folder, its token's mark a salted SHA-256, never the
// token; a token that does not match is not confirmed until its records are checked (owner.ts) and accepted.
import { describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ledgerDir, markFor, OrganizationLedger, organizationId, tokenMatches } from "../../../src/ledger/organization.js";
import { LocalStore } from "../../../src/ledger/local-store.js";
import { tempDir } from "../../helpers/cli.js";

describe("organization ledger", () => {
  it("is one folder per base URL (a trailing slash or the case of the host makes no other), in the state folder", () => {
    const env = { SHIPCTL_STATE_DIR: "/state" };
    expect(organizationId({ baseUrl: "https://API.example.com/" })).toBe(organizationId({ baseUrl: "https://api.example.com" }));
    expect(organizationId({ baseUrl: "https://a.example.com" })).not.toBe(organizationId({ baseUrl: "https://b.example.com" }));
    expect(ledgerDir(env, { baseUrl: "https://api.example.com" })).toBe(join(resolve("/state"), "ledger", organizationId({ baseUrl: "https://api.example.com" })));
  });

  it("refuses a file where the state folder should be (SHIPCTL_STATE_DIR naming a file) as usage, naming it", async () => {
    const file = join(tempDir("shipctl-org-"), "state.txt");
    writeFileSync(file, "x");
    const opened = OrganizationLedger.open({ SHIPCTL_STATE_DIR: file }, { baseUrl: "http://127.0.0.1:8080", token: "t", sees: async () => false });
    await expect(opened).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining(`${file} is a file`) });
  });

  it("marks a token with a salt of its own each time, and matches only that token", () => {
    const a = markFor("token-a");
    const b = markFor("token-a");
    expect(a.salt).not.toBe(b.salt);
    expect(a.hash).not.toBe(b.hash);
    expect(tokenMatches("token-a", a)).toBe(true);
    expect(tokenMatches("token-b", a)).toBe(false);
    expect(tokenMatches("token-a", undefined)).toBe(false);
  });

  it("writes the mark, never the token; another token is unconfirmed until accepted", async () => {
    const env = { SHIPCTL_STATE_DIR: tempDir("shipctl-org-") };
    const baseUrl = "http://127.0.0.1:8080";
    const first = await OrganizationLedger.open(env, { baseUrl, token: "secret-token-a" });
    expect(first.tokenConfirmed).toBe(true); // a new ledger
    await first.acceptToken();
    const text = readFileSync(join(ledgerDir(env, { baseUrl }), "owner.json"), "utf8");
    expect(text).not.toContain("secret-token-a");
    expect((await OrganizationLedger.open(env, { baseUrl, token: "secret-token-a" })).tokenConfirmed).toBe(true);
    const other = await OrganizationLedger.open(env, { baseUrl, token: "secret-token-b" });
    expect(other.tokenConfirmed).toBe(false);
    await other.acceptToken();
    expect((await OrganizationLedger.open(env, { baseUrl, token: "secret-token-b" })).tokenConfirmed).toBe(true);
    expect((await OrganizationLedger.open(env, { baseUrl, token: "secret-token-a" })).tokenConfirmed).toBe(false);
  });

  it("tells organizations on one URL apart by what the token sees: a rotated token keeps the ledger, another organization gets its own", async () => {
    const env = { SHIPCTL_STATE_DIR: tempDir("shipctl-org-") };
    const baseUrl = "http://127.0.0.1:8080";
    const first = await OrganizationLedger.open(env, { baseUrl, token: "token-a" });
    await first.store.record([{ key: "shipment:row", input: "/x/a.csv", state: { state: "created", id: 7 } }]);
    await first.acceptToken();
    const asked: number[] = [];
    const said: string[] = [];
    const rotated = await OrganizationLedger.open(env, { baseUrl, token: "token-a2", sees: async (_kind, id) => (asked.push(id), true) });
    expect(rotated.dir).toBe(first.dir);
    expect(rotated.tokenConfirmed).toBe(false); // its inputs' records are still checked (owner.ts) before it is accepted
    expect(asked).toEqual([7]);

    const other = await OrganizationLedger.open(env, { baseUrl, token: "token-b", sees: async () => false, say: (t) => said.push(t) });
    expect(other.dir).toBe(`${first.dir}-2`);
    expect(other.tokenConfirmed).toBe(true); // a new ledger: nothing of the first organization's is trusted or refused
    expect(await other.store.find("shipment:row")).toBeUndefined();
    expect(said.join("")).toContain(`its own ledger starts in ${first.dir}-2`);
    await other.store.record([{ key: "shipment:row", input: "/x/a.csv", state: { state: "created", id: 8 } }]);
    await other.acceptToken();
    // Each token finds its own ledger by its mark, without asking the service.
    const never = async (): Promise<boolean> => {
      throw new Error("asked the service");
    };
    expect((await OrganizationLedger.open(env, { baseUrl, token: "token-b", sees: never })).dir).toBe(`${first.dir}-2`);
    expect((await OrganizationLedger.open(env, { baseUrl, token: "token-a", sees: never })).dir).toBe(first.dir);
    // A third organization: the first ledger's writes and the second's are both unseen.
    expect((await OrganizationLedger.open(env, { baseUrl, token: "token-c", sees: async () => false })).dir).toBe(`${first.dir}-3`);
    // A folder moved away leaves a gap: the next organization's is after the last one, never one that exists.
    await new LocalStore(`${first.dir}-5`).record([{ key: "shipment:other", input: "/x/b.csv", state: { state: "created", id: 9 } }]);
    expect((await OrganizationLedger.open(env, { baseUrl, token: "token-d", sees: async () => false })).dir).toBe(`${first.dir}-6`);
  });
});
