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
    globalSetup: ["test/global-setup.ts"],
  },
});
