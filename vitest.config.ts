import { defineConfig } from "vitest/config";
import { readFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

export default defineConfig({
  define: { __SHIPCTL_VERSION__: JSON.stringify(pkg.version) },
  test: {
    include: ["test/**/*.test.ts"],
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
