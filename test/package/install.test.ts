// The package as a user gets it: `npm pack`, then `npm i -g` of the tarball into a throwaway prefix, then the installed
// `shipctl demo`. Run by `npm run test:package` (see vitest.package.config.ts for why it is not part of `npm test`).
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, expect, it } from "vitest";
import { cliEnv, ROOT, tempDir } from "../helpers/cli.js";

const work = tempDir("shipctl-package-");
const prefix = join(work, "prefix");
let tarball = "";

/** The most a packed shipctl may weigh (issue 20): what runs, and the demo's own inputs. */
const MAX_PACKED_BYTES = 1_000_000;

function npm(args: string[], cwd: string): string {
  return execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

beforeAll(() => {
  // prepack builds dist/ (the same build as `npm run build`, swapped in whole, so tests running meanwhile are safe).
  npm(["pack", "--pack-destination", work, "--silent"], ROOT);
  tarball = join(work, readdirSync(work).find((f) => f.endsWith(".tgz"))!);
});

it("packs what runs and the demo's inputs, under 1 MB, without source maps or test fixtures", () => {
  expect(statSync(tarball).size).toBeLessThanOrEqual(MAX_PACKED_BYTES);
  const files = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).trim().split("\n").map((f) => f.replace(/^package\//, ""));
  expect(files.filter((f) => f.endsWith(".map"))).toEqual([]);
  const outsideDist = files.filter((f) => !f.startsWith("dist/")).sort();
  expect(outsideDist.filter((f) => !f.startsWith("fixtures/photos/nested/"))).toEqual([
    "README.md",
    "bin/shipctl.js",
    "fixtures/demo/shipments.csv",
    "package.json",
  ]);
});

it("runs no lifecycle script on install that needs files it does not ship", () => {
  const manifest = JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" })) as {
    scripts?: Record<string, string>;
  };
  const onInstall = ["preinstall", "install", "postinstall", "prepare"].filter((name) => manifest.scripts?.[name]);
  expect(onInstall).toEqual([]);
});

it("installs globally into a throwaway prefix, and the installed shipctl runs the demo", () => {
  npm(["install", "--global", "--prefix", prefix, "--prefer-offline", "--no-audit", "--no-fund", tarball], work);
  const bin = join(prefix, process.platform === "win32" ? "shipctl.cmd" : join("bin", "shipctl"));
  // From a folder that is not the clone, with nothing of the developer's configuration.
  const r = spawnSync(bin, ["demo"], { cwd: work, env: cliEnv(), encoding: "utf8", timeout: 120_000 });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout + r.stderr).toContain("Done: addresses verified and stored, shipments created from a spreadsheet, paid");
});
