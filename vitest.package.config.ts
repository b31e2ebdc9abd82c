// `npm run test:package`: packs shipctl as npm would publish it, installs the tarball globally into a throwaway prefix
// and runs `shipctl demo` from there. Apart from `npm test` because it needs the npm registry: npm 11 resolves an
// installed package's dependencies (sharp, whose native binary is per platform) from full registry documents, which
// `npm ci` does not put in the cache, so `npm i -g --offline` fails with ENOTCACHED. `.ci/run` runs it after `npm ci`.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/package/**/*.test.ts"],
    // What it writes to the OS temp folder (tarball, prefix, config) goes in one folder, removed at the end.
    globalSetup: ["test/temp-root.ts"],
    // npm pack builds, npm install downloads sharp: minutes on a shared 2-core machine with a slow registry.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: "forks",
  },
});
