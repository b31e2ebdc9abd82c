import { afterAll, beforeAll, describe, expect, it } from "vitest";
import module from "node:module";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, tempDir } from "../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.js";
import { GALLERY_ARGS } from "../helpers/seed.js";

// bin/shipctl.js turns on Node's compile cache where Node has one (22.8 and later; CI runs these tests on Node 24 as
// well). It lives in the OS temp folder: each test points TMPDIR at a folder of its own.
const nodeHasCompileCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === "function";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

async function verify(tmp: string) {
  const org = await sb.newOrg();
  const r = await runCli(["address", "verify", ...GALLERY_ARGS, "--json"], { sandbox: org, env: { TMPDIR: tmp } });
  expect(r.exitCode, r.stderr).toBe(0);
  expect(r.stderr).toBe("");
  expect(JSON.parse(r.stdout)).toMatchObject({ valid: true });
}

/** Every file under a folder, with its path relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe("Node's compile cache", () => {
  it.runIf(nodeHasCompileCache)("is filled in the OS temp folder by a run", async () => {
    const tmp = tempDir("shipctl-tmp-");
    await verify(tmp);
    expect(readdirSync(tmp)).toEqual(["node-compile-cache"]);
    expect(filesUnder(join(tmp, "node-compile-cache")).length).toBeGreaterThan(0);
  });

  it("never fails a run: corrupt entries are compiled again", async () => {
    const tmp = tempDir("shipctl-tmp-");
    await verify(tmp);
    const cache = join(tmp, "node-compile-cache");
    for (const file of nodeHasCompileCache ? filesUnder(cache) : []) writeFileSync(file, "corrupt");
    await verify(tmp);
  });

  it("never fails a run: a cache folder that cannot be made is skipped", async () => {
    const blocker = join(tempDir("shipctl-tmp-"), "a-file");
    writeFileSync(blocker, "");
    await verify(blocker);
  });
});
