// Issue 12, point 4: --quiet leaves errors and the one-line summary on stderr (stdout unchanged), and a rerun that
// has nothing left to send prints only its summary, with or without --quiet.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { GALLERY_ARGS } from "../../helpers/seed.js";
import { rowsFile } from "./helpers.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("--quiet", () => {
  it("a CSV run: the summary alone on stderr, the same table on stdout", async () => {
    const org = await sb.newOrg();
    const { path } = rowsFile(6, { seed: 91, titlePrefix: "Quiet" });
    const r = await runCli(["shipment", "create", "--csv", path, "--quiet"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe("6 created (of 6 rows).\n");
    expect(r.stdout.trim().split("\n")).toHaveLength(7);
    expect(r.stdout).toContain("Quiet-00006");
  });

  it("--json documents are unchanged", async () => {
    const org = await sb.newOrg();
    const { path } = rowsFile(3, { seed: 92, titlePrefix: "QuietJson" });
    const r = await runCli(["shipment", "create", "--csv", path, "--json", "-q"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).counts.created).toBe(3);
    expect(r.stderr).toBe("3 created (of 3 rows).\n");
  });

  it("address add: its one line, and errors still shown", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["address", "add", ...GALLERY_ARGS, "--phone", "(206) 953-6978", "--quiet"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe(`Stored address ${Number(r.stdout)}.\n`);
    const bad = await runCli(["--quiet", "address", "add", "--name", "A"], { sandbox: org });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("Error: ");
    expect(bad.stderr).toContain("name must be at least 2 characters");
  });

  it("keeps what an error asks the person to look at: the recommended revision", async () => {
    const org = await sb.newOrg();
    const args = [...GALLERY_ARGS];
    args[args.indexOf("--line-1") + 1] = "1 main st";
    const r = await runCli(["address", "add", ...args, "--quiet"], { sandbox: org });
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toMatch(/line_1: 1 main st -> 1 Main Street/);
    expect(r.stderr).toContain("(shown above)");
  });

  it("is listed among the global options in --help", async () => {
    const r = await runCli(["--help"]);
    expect(r.stdout).toMatch(/-q, --quiet +on stderr, only errors and the one-line summary/);
  });
});

describe("a rerun with nothing left to send", () => {
  it("prints only its summary, without --quiet too", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir();
    const { path } = rowsFile(6, { seed: 93, titlePrefix: "Rerun" });
    const first = await runCli(["shipment", "create", "--csv", path, "--results", `${path}.results.csv`], { sandbox: org, configDir });
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stderr).toContain("Values read differently");
    const again = await runCli(["shipment", "create", "--csv", path, "--results", `${path}.results.csv`], { sandbox: org, configDir });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toBe("0 created, 6 already created by an earlier run (of 6 rows).\n");
  });
});
