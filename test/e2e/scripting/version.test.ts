// `shipctl version` and `--version --json`: what a bug report needs, in one line or one document. `--version` alone
// stays the bare version that scripts compare.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runCli } from "../../helpers/cli.js";

const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const KEYS = ["version", "commit", "build_date", "node_version", "platform", "arch"];
// The tests run the CLI built from this tree: from a git checkout its commit is known, from an unpacked tarball not.
const COMMIT = existsSync(join(ROOT, ".git")) ? /^[0-9a-f]{7,}(-dirty)?$/ : /^$/;

describe("shipctl version", () => {
  it("--version and -V print only the version, as before", async () => {
    for (const flag of ["--version", "-V"]) {
      const r = await runCli([flag]);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe(`${VERSION}\n`);
      expect(r.stderr).toBe("");
    }
  });

  it("--version --json, in either order, and `version --json` print the same document", async () => {
    const docs = [];
    for (const args of [["--version", "--json"], ["--json", "-V"], ["version", "--json"], ["--json", "version"]]) {
      const r = await runCli(args);
      expect(r.exitCode, args.join(" ")).toBe(0);
      expect(r.stderr).toBe("");
      docs.push(JSON.parse(r.stdout) as Record<string, string | null>);
    }
    const doc = docs[0]!;
    expect(Object.keys(doc)).toEqual(KEYS);
    for (const other of docs) expect(other).toEqual(doc);
    expect(doc).toMatchObject({ version: VERSION, node_version: process.versions.node, platform: process.platform, arch: process.arch });
    expect(doc.commit ?? "").toMatch(COMMIT);
    expect(doc.build_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it("--version --json --query applies the query, as `version --json --query` does", async () => {
    for (const args of [["--version", "--json", "--query", "node_version"], ["--json", "--query=node_version", "-V"]]) {
      const r = await runCli(args);
      expect(r.exitCode, args.join(" ")).toBe(0);
      expect(r.stdout).toBe(`${JSON.stringify(process.versions.node)}\n`);
    }
    const bad = await runCli(["--version", "--json", "--query", "abc("]);
    expect(bad.exitCode).toBe(2);
    expect(JSON.parse(bad.stdout)).toMatchObject({ error: { code: "usage_error" } });
  });

  it("`version` prints one line for people with the same facts", async () => {
    const [line, json] = await Promise.all([runCli(["version"]), runCli(["version", "--json"])]);
    expect(line.exitCode).toBe(0);
    const doc = JSON.parse(json.stdout) as { commit: string | null; build_date: string };
    const commit = doc.commit ?? "commit unknown";
    expect(line.stdout).toBe(
      `shipctl ${VERSION} (${commit}, built ${doc.build_date.slice(0, 10)}) node v${process.versions.node} ${process.platform}-${process.arch}\n`,
    );
  });

  it("refuses an argument with exit 2", async () => {
    const r = await runCli(["version", "extra"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("too many arguments");
  });
});
