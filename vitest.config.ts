import { configDefaults, defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";
import { buildDefines } from "./scripts/build-info.mjs";

export default defineConfig({
  // The constants scripts/build.mjs defines for the bundle, made the same way.
  define: buildDefines(fileURLToPath(new URL(".", import.meta.url))),
  test: {
    include: ["test/**/*.test.ts"],
    // The installed package's test needs the npm registry: `npm run test:package` (vitest.package.config.ts).
    exclude: [...configDefaults.exclude, "test/package/**"],
    // End-to-end tests spawn the built CLI and start servers: give them room on a shared 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Vitest's default in run mode is one worker fewer than the cores: one worker on this 2-core machine, so the suite
    // ran file after file (442 s on Node 20 for 384 s of tests). The end-to-end tests mostly wait on the processes
    // and servers they start, so two workers share the cores well (measured in .ci/run: see the commit).
    maxWorkers: 2,
    globalSetup: ["test/global-setup.ts"],
  },
});
