import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";

describe("shipctl demo", () => {
  it("walks the whole workflow against its own sandbox and ends with a filed condition report", async () => {
    const r = await runCli(["demo"], { timeoutMs: 60_000 });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    // Each step is shown with its command line, and each ended as the demo expects.
    for (const step of ["login", "address verify", "address add", "shipment create --csv", "list shipments", "checkout", "report upload", "shipment get"]) {
      expect(r.stdout).toContain(`$ shipctl ${step}`);
    }
    expect(r.stdout).toMatch(/4 created \(of 4 rows\)/);
    expect(r.stdout).toMatch(/paid \$[\d,.]+ for 4 shipments/);
    expect(r.stdout).toMatch(/status\s+Filed/);
    expect(r.stdout).not.toMatch(/exited \d+, expected/);
  }, 90_000);
});
