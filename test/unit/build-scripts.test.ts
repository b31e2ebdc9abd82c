import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildDate, buildDefines, gitCommit } from "../../scripts/build-info.mjs";
import { tempDir } from "../helpers/cli.js";
import { GIT, needs } from "../helpers/system.js";

// The build bundles dependencies as published: no script reads or rewrites a file of an installed package
// (issue 11). Naming the folder at all is where that starts.
describe("scripts/", () => {
  it("never names node_modules", () => {
    const dir = resolve(import.meta.dirname, "../../scripts");
    const naming = readdirSync(dir).filter((name) => readFileSync(join(dir, name), "utf8").includes("node_modules"));
    expect(naming).toEqual([]);
  });
});

// The commit and build date `shipctl version` prints, fixed when the bundle is built (scripts/build-info.mjs).
describe("build info", () => {
  // Without GIT_DIR and the like, which a git hook running the tests sets for shipctl's own repository.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("GIT_")));
  const git = (cwd: string, ...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", ...args], { cwd, env, encoding: "utf8" }).trim();
  /** A git repository with one commit of one file, and a folder in it. */
  const repository = () => {
    const dir = tempDir("shipctl-git-");
    git(dir, "init", "-q");
    writeFileSync(join(dir, "package.json"), '{"version": "9.8.7"}\n');
    mkdirSync(join(dir, "sub"));
    git(dir, "add", ".");
    git(dir, "commit", "-q", "-m", "one");
    return dir;
  };

  it("takes SOURCE_DATE_EPOCH as the build date (reproducible builds), else the time of the build", () => {
    expect(buildDate({ SOURCE_DATE_EPOCH: "1764065472" })).toBe("2025-11-25T10:11:12Z");
    expect(buildDate({}, new Date("2026-01-02T03:04:05.678Z"))).toBe("2026-01-02T03:04:05Z");
    expect(buildDate({ SOURCE_DATE_EPOCH: "" }, new Date("2026-01-02T03:04:05Z"))).toBe("2026-01-02T03:04:05Z");
  });

  it("fails the build on a malformed SOURCE_DATE_EPOCH rather than ignore it", () => {
    expect(() => buildDate({ SOURCE_DATE_EPOCH: "2025-11-25" })).toThrow(/SOURCE_DATE_EPOCH must be a whole number/);
  });

  it.skipIf(!GIT)(needs(GIT, "git", "names the checkout's short commit, -dirty when a tracked file changed"), () => {
    const dir = repository();
    const head = git(dir, "rev-parse", "--short", "HEAD");
    expect(gitCommit(dir, env)).toBe(head);
    writeFileSync(join(dir, "untracked.txt"), "new\n");
    expect(gitCommit(dir, env)).toBe(head);
    writeFileSync(join(dir, "package.json"), '{"version": "9.8.8"}\n');
    expect(gitCommit(dir, env)).toBe(`${head}-dirty`);
  });

  it.skipIf(!GIT)(needs(GIT, "git", "has no commit outside a checkout, or inside another project's repository (an unpacked package)"), () => {
    expect(gitCommit(tempDir("shipctl-no-git-"), env)).toBeNull();
    expect(gitCommit(join(repository(), "sub"), env)).toBeNull();
  });

  it.skipIf(!GIT)(needs(GIT, "git", "gives esbuild and vitest the three constants as JSON source text"), () => {
    const defines = buildDefines(repository(), { ...env, SOURCE_DATE_EPOCH: "0" });
    expect(Object.keys(defines)).toEqual(["__SHIPCTL_VERSION__", "__SHIPCTL_COMMIT__", "__SHIPCTL_BUILD_DATE__"]);
    expect(JSON.parse(defines.__SHIPCTL_VERSION__!)).toBe("9.8.7");
    expect(JSON.parse(defines.__SHIPCTL_COMMIT__!)).toMatch(/^[0-9a-f]{7,}$/);
    expect(JSON.parse(defines.__SHIPCTL_BUILD_DATE__!)).toBe("1970-01-01T00:00:00Z");
  });
});
