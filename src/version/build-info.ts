// What `shipctl version` and `shipctl --version --json` say: this build (version, commit and build date, fixed when
// it was built: scripts/build-info.mjs) and the Node and platform running it, which a bug report needs.
// main() answers `--version --json` with it before loading the command tree, so it imports nothing.

// Its type is what it returns (BuildInfo below); commit and build_date are described in src/globals.d.ts.
export function buildInfo() {
  return {
    version: __SHIPCTL_VERSION__,
    commit: __SHIPCTL_COMMIT__,
    build_date: __SHIPCTL_BUILD_DATE__,
    // Without the leading "v", as process.versions.node says it.
    node_version: process.versions.node,
    platform: process.platform,
    arch: process.arch,
  };
}

export type BuildInfo = ReturnType<typeof buildInfo>;

/** One line, e.g. `shipctl 0.1.0 (abc1234, built 2026-11-25) node v20.19.0 linux-x64`. */
export function versionLine(info: BuildInfo): string {
  return `shipctl ${info.version} (${info.commit ?? "commit unknown"}, built ${info.build_date.slice(0, 10)}) node v${info.node_version} ${info.platform}-${info.arch}\n`;
}
