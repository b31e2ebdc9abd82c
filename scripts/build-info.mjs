// What a build of shipctl knows about itself, fixed when it is built: scripts/build.mjs hands these to esbuild's
// `define`, and vitest.config.ts defines the same for the tests. `shipctl version` prints them (src/version/).
import { execFileSync } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";

/** The constants src/globals.d.ts declares, as esbuild's and vite's `define` take them (JSON source text). */
export function buildDefines(root, env = process.env, now = new Date()) {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  return {
    __SHIPCTL_VERSION__: JSON.stringify(pkg.version),
    __SHIPCTL_COMMIT__: JSON.stringify(gitCommit(root, env)),
    __SHIPCTL_BUILD_DATE__: JSON.stringify(buildDate(env, now)),
  };
}

/**
 * The short commit of shipctl's own checkout, `-dirty` when tracked files differ from it (as `git describe --dirty`
 * says); null outside a checkout (an npm tarball has no .git) or without git.
 */
export function gitCommit(root, env = process.env) {
  // GIT_OPTIONAL_LOCKS=0: `git status` then never takes the index lock, which a commit running at that moment needs.
  const git = (...args) =>
    execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], env: { ...env, GIT_OPTIONAL_LOCKS: "0" } }).trim();
  try {
    // Only shipctl's own checkout: unpacked inside another project's repository, git would name that project's commit.
    if (realpathSync(git("rev-parse", "--show-toplevel")) !== realpathSync(root)) return null;
    const commit = git("rev-parse", "--short", "HEAD");
    return git("status", "--porcelain", "--untracked-files=no") === "" ? commit : `${commit}-dirty`;
  } catch {
    return null;
  }
}

/** When the build ran, to the second, in UTC; SOURCE_DATE_EPOCH (reproducible builds) fixes it. */
export function buildDate(env = process.env, now = new Date()) {
  const epoch = env.SOURCE_DATE_EPOCH?.trim();
  if (epoch && !/^\d+$/.test(epoch)) {
    // reproducible-builds.org: a malformed value must fail the build rather than be ignored.
    throw new Error(`SOURCE_DATE_EPOCH must be a whole number of seconds since 1970-01-01 UTC (got "${epoch}")`);
  }
  const date = epoch ? new Date(Number(epoch) * 1000) : now;
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
