// What `shipctl version` says: the build's constants (vitest defines them as the build does) and the running Node.
import { describe, expect, it } from "vitest";
import { buildInfo, versionLine, type BuildInfo } from "../../../src/version/build-info.js";

const INFO: BuildInfo = {
  version: "0.1.0",
  commit: "abc1234",
  build_date: "2026-11-25T10:11:12Z",
  node_version: "20.19.0",
  platform: "linux",
  arch: "x64",
};

describe("versionLine", () => {
  it("says the version, commit, build day, Node and platform on one line", () => {
    expect(versionLine(INFO)).toBe("shipctl 0.1.0 (abc1234, built 2026-11-25) node v20.19.0 linux-x64\n");
  });

  it("says the commit is unknown for a build made outside a git checkout", () => {
    expect(versionLine({ ...INFO, commit: null })).toBe("shipctl 0.1.0 (commit unknown, built 2026-11-25) node v20.19.0 linux-x64\n");
  });
});

describe("buildInfo", () => {
  it("has the build's constants and the running Node, in snake_case keys", () => {
    const info = buildInfo();
    expect(Object.keys(info)).toEqual(["version", "commit", "build_date", "node_version", "platform", "arch"]);
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(info.build_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(info).toMatchObject({ node_version: process.versions.node, platform: process.platform, arch: process.arch });
  });
});
