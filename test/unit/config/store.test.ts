import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cacheDir, configDir, configFilePath, stateDir } from "../../../src/config/paths.js";
import { openConfigStore } from "../../../src/config/store.js";
import { UsageError } from "../../../src/errors.js";
import { tempDir } from "../../helpers/cli.js";

const posix = process.platform !== "win32";

describe("config store", () => {
  it("creates the directory 0700 and writes the file 0600", async () => {
    const dir = join(tempDir(), "nested", "shipctl");
    const store = await openConfigStore({ SHIPCTL_CONFIG_DIR: dir });
    await store.update((d) => {
      d.profiles.default = { baseUrl: "https://example.com", token: "secret-token-1234" };
    });
    expect(store.path).toBe(join(dir, "config.json"));
    if (posix) {
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(store.path).mode & 0o777).toBe(0o600);
    }
    expect(JSON.parse(readFileSync(store.path, "utf8"))).toEqual({
      profiles: { default: { baseUrl: "https://example.com", token: "secret-token-1234" } },
    });
  });

  it("keeps the file 0600 across rewrites and narrows a file left readable by others", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.json"), JSON.stringify({ profiles: {} }), { mode: 0o644 });
    chmodSync(join(dir, "config.json"), 0o644);
    const store = await openConfigStore({ SHIPCTL_CONFIG_DIR: dir });
    if (posix) expect(statSync(store.path).mode & 0o777).toBe(0o600);
    await store.update((d) => {
      d.currentProfile = "a";
    });
    await store.update((d) => {
      d.currentProfile = "b";
    });
    if (posix) expect(statSync(store.path).mode & 0o777).toBe(0o600);
    expect(store.read().currentProfile).toBe("b");
  });

  it("leaves an existing directory's mode alone (it may be a shared one the user chose)", async () => {
    const dir = tempDir();
    chmodSync(dir, 0o755);
    await openConfigStore({ SHIPCTL_CONFIG_DIR: dir });
    if (posix) expect(statSync(dir).mode & 0o777).toBe(0o755);
  });

  it("reads an empty config when there is no file, without creating one", async () => {
    const dir = tempDir();
    const store = await openConfigStore({ SHIPCTL_CONFIG_DIR: dir });
    expect(store.read()).toEqual({ profiles: {} });
    expect(existsSync(store.path)).toBe(false);
  });

  it("keeps profile names with dots as plain keys, and keys it does not know", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.json"), JSON.stringify({ profiles: {}, futureSetting: 42 }));
    const store = await openConfigStore({ SHIPCTL_CONFIG_DIR: dir });
    await store.update((d) => {
      d.profiles["prod.eu"] = { baseUrl: "https://eu.example.com" };
    });
    const raw = JSON.parse(readFileSync(store.path, "utf8"));
    expect(raw.profiles["prod.eu"]).toEqual({ baseUrl: "https://eu.example.com" });
    expect(raw.futureSetting).toBe(42);
  });

  it("reads and rewrites a file edited by hand that starts with a byte-order mark", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.json"), `\uFEFF${JSON.stringify({ profiles: { work: { baseUrl: "https://a.example" } } })}`);
    const store = await openConfigStore({ SHIPCTL_CONFIG_DIR: dir });
    expect(store.read().profiles.work).toEqual({ baseUrl: "https://a.example" });
    await store.update((d) => {
      d.profiles.work!.lookDays = 3;
    });
    expect(JSON.parse(readFileSync(store.path, "utf8")).profiles.work).toEqual({ baseUrl: "https://a.example", lookDays: 3 });
  });

  it("names the file and the field when the file is broken", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.json"), "{ not json");
    const broken = await openConfigStore({ SHIPCTL_CONFIG_DIR: dir });
    expect(() => broken.read()).toThrow(UsageError);
    expect(() => broken.read()).toThrow(/config\.json: it is not valid JSON|config\.json.*not valid JSON/);

    writeFileSync(join(dir, "config.json"), JSON.stringify({ profiles: { work: { token: 42 } } }));
    const wrong = await openConfigStore({ SHIPCTL_CONFIG_DIR: dir });
    expect(() => wrong.read()).toThrow(/profiles\.work\.token/);
  });

  it("says which directory it cannot create", async () => {
    const file = join(tempDir(), "a-file");
    writeFileSync(file, "");
    await expect(openConfigStore({ SHIPCTL_CONFIG_DIR: join(file, "sub") })).rejects.toThrow(/cannot create the config directory/);
  });

  it("finds the same default directory as conf itself would for projectName shipctl", async () => {
    const xdg = tempDir();
    const previous = process.env.XDG_CONFIG_HOME;
    process.env.XDG_CONFIG_HOME = xdg;
    try {
      const { default: Conf } = await import("conf");
      const conf = new Conf({ projectName: "shipctl" });
      expect(configFilePath({ XDG_CONFIG_HOME: xdg })).toBe(conf.path);
    } finally {
      if (previous === undefined) delete process.env.XDG_CONFIG_HOME;
      else process.env.XDG_CONFIG_HOME = previous;
    }
  });

  it("uses SHIPCTL_CONFIG_DIR when set, and the platform's place otherwise", () => {
    const mine = join(tempDir(), "x");
    expect(configDir({ SHIPCTL_CONFIG_DIR: mine })).toBe(mine);
    expect(configDir({}, "linux", "/home/u")).toBe("/home/u/.config/shipctl-nodejs");
    expect(configDir({}, "darwin", "/Users/u")).toBe("/Users/u/Library/Preferences/shipctl-nodejs");
  });

  it("joins each system's places with its own separator, whichever system runs the test", () => {
    const env = { APPDATA: "C:\\Users\\ann\\AppData\\Roaming", LOCALAPPDATA: "C:\\Users\\ann\\AppData\\Local" };
    expect(configDir(env, "win32", "C:\\Users\\ann")).toBe("C:\\Users\\ann\\AppData\\Roaming\\shipctl-nodejs\\Config");
    expect(stateDir(env, "win32", "C:\\Users\\ann")).toBe("C:\\Users\\ann\\AppData\\Local\\shipctl\\State");
    expect(cacheDir({}, "win32", "C:\\Users\\ann")).toBe("C:\\Users\\ann\\AppData\\Local\\shipctl\\Cache");
    expect(stateDir({}, "darwin", "/Users/ann")).toBe("/Users/ann/Library/Application Support/shipctl");
    expect(cacheDir({}, "darwin", "/Users/ann")).toBe("/Users/ann/Library/Caches/shipctl");
  });
});
