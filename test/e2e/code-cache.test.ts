import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, tempDir } from "../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.js";
import { GALLERY_ARGS } from "../helpers/seed.js";

// undici and zod are compiled with V8's code cache kept in SHIPCTL_CACHE_DIR (src/code-cache.ts): made by the first
// run, taken as is by the next, and never in the way.
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

async function verify(cacheDir: string) {
  const org = await sb.newOrg();
  const r = await runCli(["address", "verify", ...GALLERY_ARGS, "--json"], { sandbox: org, env: { SHIPCTL_CACHE_DIR: cacheDir } });
  expect(r.exitCode, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject({ valid: true });
  return r;
}

describe("the code cache", () => {
  it("is written by the first run and taken, unchanged, by the next", async () => {
    const dir = tempDir("shipctl-cache-");
    await verify(dir);
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^undici-[0-9a-f]{12}\.cjs\..+\.v8cache$/);
    expect(files[1]).toMatch(/^zod-[0-9a-f]{12}\.cjs\..+\.v8cache$/);
    const before = files.map((name) => ({ path: join(dir, name), bytes: readFileSync(join(dir, name)), mtime: statSync(join(dir, name)).mtimeMs }));

    await verify(dir);
    expect(readdirSync(dir).sort()).toEqual(files);
    // A cache V8 refused would have been written again.
    for (const file of before) {
      expect(statSync(file.path).mtimeMs, file.path).toBe(file.mtime);
      expect(readFileSync(file.path).equals(file.bytes), file.path).toBe(true);
    }
  });

  it("is replaced when V8 refuses it, with the run unaffected", async () => {
    const dir = tempDir("shipctl-cache-");
    await verify(dir);
    const names = readdirSync(dir);
    for (const name of names) writeFileSync(join(dir, name), "corrupt");
    const r = await verify(dir);
    expect(r.stderr).toBe("");
    for (const name of names) expect(readFileSync(join(dir, name)).length, name).toBeGreaterThan(1000);
  });

  it("is skipped silently where it cannot be written", async () => {
    const blocker = join(tempDir("shipctl-cache-"), "a-file");
    writeFileSync(blocker, "");
    const r = await verify(join(blocker, "cache"));
    expect(r.stderr).toBe("");
  });

  it("is not used by --help and --version, which load no vendor script", async () => {
    const dir = tempDir("shipctl-cache-");
    for (const args of [["--help"], ["--version"]]) {
      const r = await runCli(args, { env: { SHIPCTL_CACHE_DIR: dir } });
      expect(r.exitCode).toBe(0);
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});
