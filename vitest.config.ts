import { configDefaults, defineConfig } from "vitest/config";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildDefines } from "./scripts/build-info.mjs";

const root = fileURLToPath(new URL(".", import.meta.url));

/**
 * The unit test files that replace a module (vi.mock, vi.doMock): each needs a module graph of its own, since another
 * file may already have loaded the module it replaces, or the modules importing it. Found by reading the files, so a
 * new one is never left among the files that share their modules.
 */
function unitFilesReplacingModules(): string[] {
  return readdirSync(join(root, "test/unit"), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts"))
    .map((file) => `test/unit/${file.split("\\").join("/")}`)
    .filter((file) => /\bvi\.(mock|doMock)\(/.test(readFileSync(join(root, file), "utf8")));
}
const isolatedUnitFiles = unitFilesReplacingModules();

export default defineConfig({
  // The constants scripts/build.mjs defines for the bundle, made the same way.
  define: buildDefines(root),
  test: {
    // End-to-end tests spawn the built CLI and start servers: give them room on a shared 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Vitest's default in run mode is one worker fewer than the cores: one worker on this 2-core machine, so the suite
    // ran file after file (442 s on Node 20 for 384 s of tests). The end-to-end tests mostly wait on the processes
    // and servers they start, so two workers share the cores well (measured in .ci/run: see the commit).
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          globalSetup: ["test/temp-root.ts"],
          include: ["test/unit/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...isolatedUnitFiles],
          // The unit files share their worker's modules instead of loading them afresh in a new process each: 204
          // files took 130 s for 63 s of tests when isolated, 33-40 s without (2 workers, load 3-6). A test that
          // needs a module's first state takes a fresh copy (vi.resetModules), and one that changes what the process
          // shares (listeners, environment) puts it back.
          isolate: false,
        },
      },
      { extends: true, test: { name: "unit-mocks", globalSetup: ["test/temp-root.ts"], include: isolatedUnitFiles } },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/**/*.test.ts"],
          // The installed package's test needs the npm registry: `npm run test:package` (vitest.package.config.ts).
          exclude: [...configDefaults.exclude, "test/unit/**", "test/package/**"],
          globalSetup: ["test/temp-root.ts", "test/global-setup.ts"],
          // One worker process runs many files here too: what they load (the sandbox, undici) is loaded once per
          // worker, not once per file (import 68 s -> 8 s summed over the 108 files). Each file starts and closes
          // its own sandboxes; the CLI runs in processes of its own either way.
          isolate: false,
        },
      },
    ],
  },
});
