// SHIPCTL_LEDGER and SHIPCTL_ORGANIZATION read, and the ledger's password kept out of every text shown.
import { describe, expect, it } from "vitest";
import { UsageError } from "../../../src/errors.js";
import { describeLedger, ledgerSettings, redactLedgerSecrets } from "../../../src/ledger/ledger-settings.js";

describe("ledgerSettings", () => {
  it("is local by default, and for SHIPCTL_LEDGER=local", () => {
    expect(ledgerSettings({})).toEqual({ kind: "local" });
    expect(ledgerSettings({ SHIPCTL_LEDGER: " local " })).toEqual({ kind: "local" });
  });

  it("takes a postgres URL with the organization's name", () => {
    expect(ledgerSettings({ SHIPCTL_LEDGER: "postgresql://db/x", SHIPCTL_ORGANIZATION: "north-gallery" })).toEqual({ kind: "postgres", url: "postgresql://db/x", organization: "north-gallery" });
  });

  it("refuses a shared ledger without an organization, a bad name, or another URL, never showing the password", () => {
    expect(() => ledgerSettings({ SHIPCTL_LEDGER: "postgres://db/x" })).toThrow(/SHIPCTL_ORGANIZATION is not set/);
    expect(() => ledgerSettings({ SHIPCTL_LEDGER: "postgres://db/x", SHIPCTL_ORGANIZATION: "North Gallery" })).toThrow(UsageError);
    const refusal = (() => {
      try {
        ledgerSettings({ SHIPCTL_LEDGER: "mysql://ana:hunter22@db/x", SHIPCTL_ORGANIZATION: "n" });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(refusal?.message).toContain("mysql://ana:[REDACTED]@db/x");
    expect(refusal?.message).not.toContain("hunter22");
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
