// The ledger a run uses (the profile's ledger and organization, SHIPCTL_LEDGER and SHIPCTL_ORGANIZATION first), and
// the ledger's password kept out of every text shown.
import { describe, expect, it } from "vitest";
import { hasUrlPassword, redactUrlPassword, resolveLedger } from "../../../src/config/ledger-setting.js";
import { UsageError } from "../../../src/errors.js";
import { describeLedger, redactLedgerSecrets } from "../../../src/ledger/ledger-settings.js";

const settingsOf = (env: NodeJS.ProcessEnv, stored?: { ledger?: string; organization?: string }) => resolveLedger(env, stored, "default");

describe("resolveLedger", () => {
  it("is local by default, and for local", () => {
    expect(settingsOf({})).toEqual({ kind: "local" });
    expect(settingsOf({ SHIPCTL_LEDGER: " local " })).toEqual({ kind: "local" });
    expect(settingsOf({}, { ledger: "local" })).toEqual({ kind: "local" });
  });

  it("takes a postgres URL with the organization's name, from the profile or the environment, the environment first", () => {
    const shared = { kind: "postgres", url: "postgresql://db/x", organization: "north-gallery" };
    expect(settingsOf({ SHIPCTL_LEDGER: "postgresql://db/x", SHIPCTL_ORGANIZATION: "north-gallery" })).toEqual(shared);
    expect(settingsOf({}, { ledger: "postgresql://db/x", organization: "north-gallery" })).toEqual(shared);
    expect(settingsOf({ SHIPCTL_ORGANIZATION: "north-gallery" }, { ledger: "postgresql://db/x", organization: "south" })).toEqual(shared);
    expect(settingsOf({ SHIPCTL_LEDGER: "local" }, { ledger: "postgresql://db/x", organization: "north-gallery" })).toEqual({ kind: "local" });
  });

  it("a profile's shared ledger without an organization: the `config set organization` it prints names that profile", () => {
    const refusal = (() => {
      try {
        resolveLedger({}, { ledger: "postgres://db/x" }, "staging");
      } catch (e) {
        return e as UsageError;
      }
    })();
    expect(refusal?.hint).toContain("`shipctl config set organization north-gallery --profile staging`");
  });

  it("refuses a shared ledger without an organization, a bad name, or another URL, never showing the password", () => {
    expect(() => settingsOf({ SHIPCTL_LEDGER: "postgres://db/x" })).toThrow(/needs the organization's name/);
    expect(() => settingsOf({}, { ledger: "postgres://db/x" })).toThrow(/the ledger setting of profile default/);
    expect(() => settingsOf({ SHIPCTL_LEDGER: "postgres://db/x", SHIPCTL_ORGANIZATION: "North Gallery" })).toThrow(UsageError);
    const refusal = (() => {
      try {
        settingsOf({ SHIPCTL_LEDGER: "mysql://ana:hunter22@db/x", SHIPCTL_ORGANIZATION: "n" });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(refusal?.message).toContain("mysql://ana:[REDACTED]@db/x");
    expect(refusal?.message).not.toContain("hunter22");
  });

  it("tells a URL with a password", () => {
    expect(hasUrlPassword("postgres://ana:pw@db/x")).toBe(true);
    expect(hasUrlPassword("postgres://ana@db/x")).toBe(false);
    expect(hasUrlPassword("postgres://db/x?password=no")).toBe(false);
  });

  it("hides all of a password holding an unencoded @, which pg reads as part of it", () => {
    expect(redactUrlPassword("postgres://ana:p@ss@db/x")).toBe("postgres://ana:[REDACTED]@db/x");
    expect(redactUrlPassword("postgres://ana:pw@db/x@y")).toBe("postgres://ana:[REDACTED]@db/x@y");
  });
});

describe("describeLedger and redactLedgerSecrets", () => {
  const settings = { kind: "postgres" as const, url: "postgres://ana:p%40ss%2Fw0rd@db.gallery.example:6432/shipctl?sslmode=require", organization: "north-gallery" };

  it("names host, port, database and organization, no user or password", () => {
    expect(describeLedger(settings, {})).toBe("postgres db.gallery.example:6432/shipctl, organization north-gallery");
    expect(describeLedger({ ...settings, url: "postgres:///shipctl?host=/run/pg" }, {})).toBe("postgres /run/pg/shipctl, organization north-gallery");
  });

  it("takes the password out in its URL-encoded and plain forms, and PGPASSWORD's", () => {
    const text = `failed: ${settings.url}; auth p@ss/w0rd; env s3cr3t-env`;
    const out = redactLedgerSecrets(text, settings, { PGPASSWORD: "s3cr3t-env" });
    expect(out).not.toMatch(/p%40ss|p@ss|s3cr3t-env/);
    expect(out).toContain("postgres://ana:[REDACTED]@db.gallery.example");
  });
});
