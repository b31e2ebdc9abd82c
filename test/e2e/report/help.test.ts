// `report upload` explains itself, and refuses bad flags before touching the disk or the network.
import { describe, expect, it } from "vitest";
import { fixture, runCli } from "../../helpers/cli.js";

describe("report upload: help and usage", () => {
  it("--help documents layouts, checks, batches, exit codes and examples", async () => {
    const r = await runCli(["report", "upload", "--help"]);
    expect(r.exitCode).toBe(0);
    for (const text of ["--set <1|2>", "--batch <root>", "--manifest <file.csv>", "--by-order", "--fit", "--preview <file>", "--concurrency <n>", "--no-wait", "in flight", "organization's ledger", "box/front.jpg", "IMG_2 before IMG_10", "1,048,576", "Exit codes", "Examples:"]) {
      expect(r.stdout).toContain(text);
    }
  });

  it.each([
    [["report", "upload", "12", fixture("photos/nested")], "--set is required"],
    [["report", "upload", "12", fixture("photos/nested"), "--set", "3"], "the set is 1"],
    [["report", "upload", "--set", "1"], "give the shipment id and the photo folder"],
    [["report", "upload", "--batch", ".", "--manifest", "m.csv", "--set", "1"], "not both"],
    [["report", "upload", "12", fixture("photos/nested"), "--set", "1", "--preview", "x.pdf"], ".html or .png"],
  ])("%j is exit 2: %s", async (args, message) => {
    const r = await runCli(args);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe("");
  });
});
