import { describe, expect, it } from "vitest";
import { join, resolve } from "node:path";
import { configDir, stateDir } from "../../../src/config/paths.js";

describe("stateDir", () => {
  it("SHIPCTL_STATE_DIR, else beside SHIPCTL_CONFIG_DIR, else the platform's state folder (not the cache)", () => {
    expect(stateDir({ SHIPCTL_STATE_DIR: "/s", SHIPCTL_CONFIG_DIR: "/c" })).toBe(resolve("/s"));
    expect(stateDir({ SHIPCTL_CONFIG_DIR: "/c" })).toBe(join(resolve("/c"), "state"));
    expect(stateDir({}, "linux", "/home/u")).toBe("/home/u/.local/state/shipctl");
    expect(stateDir({ XDG_STATE_HOME: "/xdg" }, "linux", "/home/u")).toBe("/xdg/shipctl");
    expect(stateDir({ XDG_STATE_HOME: "relative" }, "linux", "/home/u")).toBe("/home/u/.local/state/shipctl");
    expect(stateDir({}, "darwin", "/Users/u")).toBe("/Users/u/Library/Application Support/shipctl");
    expect(stateDir({ LOCALAPPDATA: "C:\\L" }, "win32", "C:\\U")).toBe("C:\\L\\shipctl\\State");
  });

  it("reads a leading ~ in SHIPCTL_STATE_DIR and SHIPCTL_CONFIG_DIR as the home folder, as a shell would", () => {
    // On this machine's platform: the folder is resolved on it, and its path joined as it joins paths.
    expect(stateDir({ SHIPCTL_STATE_DIR: "~/s" }, process.platform, "/home/u")).toBe(resolve("/home/u/s"));
    expect(stateDir({ SHIPCTL_CONFIG_DIR: "~" }, process.platform, "/home/u")).toBe(join(resolve("/home/u"), "state"));
    expect(configDir({ SHIPCTL_CONFIG_DIR: "~/c" }, process.platform, "/home/u")).toBe(resolve("/home/u/c"));
    expect(stateDir({ SHIPCTL_STATE_DIR: "~ana/s" }, process.platform, "/home/u")).toBe(resolve("~ana/s"));
  });
});
