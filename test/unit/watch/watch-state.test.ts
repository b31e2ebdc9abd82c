import { describe, expect, it } from "vitest";
import { readFileSync, writeFileSync, mkdirSync, readdirSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { tempDir } from "../../helpers/cli.js";
import { loadWatchState, saveWatchState, watchStatePath } from "../../../src/watch/watch-state.js";

const WHO = { profile: "default", baseUrl: "https://api.example.com" };
const NOW = new Date("2026-03-01T12:00:00Z");

describe("watch state", () => {
  it("one file per profile and base URL", () => {
    const env = { SHIPCTL_STATE_DIR: "/s" };
    const a = watchStatePath(env, "default", "https://a.example");
    expect(dirname(a)).toBe(join(resolve("/s"), "watch"));
    expect(basename(a)).toMatch(/^default-[0-9a-f]{12}\.json$/);
    expect(watchStatePath(env, "default", "https://b.example")).not.toBe(a);
    expect(watchStatePath(env, "other", "https://a.example")).not.toBe(a);
    const unsafe = watchStatePath(env, "../x", "https://a.example");
    expect(dirname(unsafe)).toBe(join(resolve("/s"), "watch"));
    expect(basename(unsafe)).toMatch(/^\.\._x-/);
  });

  it("a missing file is an empty state; a saved one reads back without Completed shipments", async () => {
    const path = watchStatePath({ SHIPCTL_STATE_DIR: tempDir() }, "default", WHO.baseUrl);
    expect(await loadWatchState(path)).toMatchObject({ existed: false, seen: new Map() });
    await saveWatchState(path, WHO, new Map([[1, { status: 7, title: "A" }], [2, { status: 12, title: "B" }]]), NOW);
    const back = await loadWatchState(path);
    expect(back.existed).toBe(true);
    expect([...back.seen]).toEqual([[1, { status: 7, title: "A" }]]);
    expect(JSON.parse(readFileSync(path, "utf8"))).toMatchObject({ version: 1, profile: "default", base_url: WHO.baseUrl, saved_at: NOW.toISOString() });
    // Written through a temporary file renamed over it: nothing else is left in the folder.
    expect(readdirSync(dirname(path))).toEqual([basename(path)]);
  });

  it("keeps the entries another watch saved meanwhile", async () => {
    const path = watchStatePath({ SHIPCTL_STATE_DIR: tempDir() }, "default", WHO.baseUrl);
    await saveWatchState(path, WHO, new Map([[1, { status: 7, title: "A" }]]), NOW);
    await saveWatchState(path, WHO, new Map([[2, { status: 3, title: "B" }]]), NOW);
    expect([...(await loadWatchState(path)).seen.keys()]).toEqual([1, 2]);
  });

  it("a damaged file is an error naming it, not a silent fresh start", async () => {
    const path = watchStatePath({ SHIPCTL_STATE_DIR: tempDir() }, "default", WHO.baseUrl);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, "{not json");
    await expect(loadWatchState(path)).rejects.toMatchObject({ message: expect.stringContaining(path), hint: expect.stringContaining("Delete it") });
  });
});
