// `profile remove` on a terminal: it asks, Enter answers no, and a no removes nothing (exit 3).
import { describe, expect, it } from "vitest";
import { removeProfile } from "../../../src/config/remove-profile.js";
import { openConfigStore } from "../../../src/config/store.js";
import { CancelledError } from "../../../src/errors.js";
import { configDeps } from "./config-fixtures.js";

async function withProfiles(tty: boolean, answers: boolean[], env: NodeJS.ProcessEnv = {}) {
  const t = configDeps({ tty, answers, env });
  const store = await openConfigStore(t.deps.env);
  await store.update((d) => {
    d.profiles.work = { baseUrl: "https://work.example.com", token: "work-token-0123456789" };
    d.profiles.lab = { baseUrl: "http://127.0.0.1:9" };
    d.currentProfile = "work";
  });
  return { ...t, store };
}

describe("profile remove on a terminal", () => {
  it("asks, and a no removes nothing (exit 3)", async () => {
    const t = await withProfiles(true, [false]);
    const e = await removeProfile(t.deps, "work", false).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(CancelledError);
    expect(t.prompter.asked).toEqual(["Remove profile work (https://work.example.com), with its saved token and tables?"]);
    expect(Object.keys(t.store.read().profiles).sort()).toEqual(["lab", "work"]);
  });

  it("a yes removes it, and says what becomes current", async () => {
    const t = await withProfiles(true, [true]);
    await removeProfile(t.deps, "work", false);
    expect(t.store.read()).toEqual({ profiles: { lab: { baseUrl: "http://127.0.0.1:9" } } });
    expect(t.io.stderr()).toContain("It was the current profile: commands now use profile default (default: none chosen), which is not saved");
  });

  it("--yes asks nothing", async () => {
    const t = await withProfiles(true, []);
    await removeProfile(t.deps, "lab", true);
    expect(t.prompter.asked).toEqual([]);
    expect(Object.keys(t.store.read().profiles)).toEqual(["work"]);
    expect(t.io.stderr()).not.toContain("now use");
  });

  it("removing the current profile makes the one commands use from then on current (SHIPCTL_PROFILE's here)", async () => {
    const t = await withProfiles(false, [], { SHIPCTL_PROFILE: "lab" });
    await removeProfile(t.deps, "work", true);
    expect(t.store.read().currentProfile).toBe("lab");
    expect(t.io.stderr()).toContain("It was the current profile: commands now use profile lab (SHIPCTL_PROFILE).");
  });
});
