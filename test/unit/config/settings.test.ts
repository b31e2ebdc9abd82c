import { describe, expect, it } from "vitest";
import { resolveSettings, type SettingsInput } from "../../../src/config/settings.js";
import type { ConfigData } from "../../../src/config/schema.js";
import { UsageError } from "../../../src/errors.js";

const data: ConfigData = {
  currentProfile: "work",
  profiles: {
    work: { baseUrl: "https://work.example.com", token: "work-token-123456" },
    home: { baseUrl: "https://home.example.com", token: "home-token-123456" },
  },
};

function resolve(over: Partial<SettingsInput> = {}) {
  return resolveSettings({ globals: {}, env: {}, data, configPath: "/cfg/config.json", ...over });
}

describe("settings precedence: flag > env > profile", () => {
  it("takes everything from the current profile when nothing overrides it", () => {
    const s = resolve();
    expect(s.profile).toEqual({ value: "work", source: "profile" });
    expect(s.baseUrl).toEqual({ value: "https://work.example.com", source: "profile" });
    expect(s.token).toEqual({ value: "work-token-123456", source: "profile" });
  });

  it("falls back to the profile named default when no profile is chosen anywhere", () => {
    const s = resolve({ data: { profiles: { default: { baseUrl: "https://d.example.com" } } } });
    expect(s.profile).toEqual({ value: "default", source: "default" });
    expect(s.baseUrl?.source).toBe("profile");
    expect(s.token).toBeUndefined();
  });

  it("profile name: --profile beats SHIPCTL_PROFILE beats currentProfile", () => {
    expect(resolve({ env: { SHIPCTL_PROFILE: "home" } }).profile).toEqual({ value: "home", source: "env" });
    const s = resolve({ env: { SHIPCTL_PROFILE: "work" }, globals: { profile: "home" } });
    expect(s.profile).toEqual({ value: "home", source: "flag" });
    expect(s.baseUrl).toEqual({ value: "https://home.example.com", source: "profile" });
    expect(s.token?.value).toBe("home-token-123456");
  });

  it("base URL: --base-url beats SHIPCTL_BASE_URL beats the profile", () => {
    expect(resolve({ env: { SHIPCTL_BASE_URL: "https://env.example.com" } }).baseUrl).toEqual({
      value: "https://env.example.com",
      source: "env",
    });
    expect(
      resolve({ env: { SHIPCTL_BASE_URL: "https://env.example.com" }, globals: { baseUrl: "https://flag.example.com/" } }).baseUrl,
    ).toEqual({ value: "https://flag.example.com", source: "flag" });
  });

  it("token: SHIPCTL_TOKEN beats the profile (there is no token flag)", () => {
    const s = resolve({ env: { SHIPCTL_TOKEN: "  env-token-abcdef \n" } });
    expect(s.token).toEqual({ value: "env-token-abcdef", source: "env" });
  });

  it("reads empty environment variables as unset", () => {
    const s = resolve({ env: { SHIPCTL_PROFILE: "", SHIPCTL_BASE_URL: " ", SHIPCTL_TOKEN: "" } });
    expect(s.profile.source).toBe("profile");
    expect(s.baseUrl?.source).toBe("profile");
    expect(s.token?.source).toBe("profile");
  });

  it("a profile missing from the file has no stored settings, but env can still supply them", () => {
    const s = resolve({ globals: { profile: "ci" }, env: { SHIPCTL_BASE_URL: "https://ci.example.com", SHIPCTL_TOKEN: "ci-token-0000000" } });
    expect(s.stored).toBeUndefined();
    expect(s.baseUrl?.source).toBe("env");
    expect(s.token?.source).toBe("env");
  });

  it("never reads a profile named like an Object.prototype key from the prototype", () => {
    const s = resolve({ globals: { profile: "constructor" } });
    expect(s.stored).toBeUndefined();
    expect(s.baseUrl).toBeUndefined();
  });
});

describe("settings checks", () => {
  it("refuses plain http from any source, naming that source", () => {
    expect(() => resolve({ globals: { baseUrl: "http://example.com" } })).toThrow(/--base-url uses plain http/);
    expect(() => resolve({ env: { SHIPCTL_BASE_URL: "http://example.com" } })).toThrow(/SHIPCTL_BASE_URL uses plain http/);
    const edited: ConfigData = { profiles: { default: { baseUrl: "http://example.com" } } };
    expect(() => resolve({ data: edited })).toThrow(/baseUrl of profile "default" \(\/cfg\/config.json\) uses plain http/);
  });

  it("notes a stripped /api/v1 so the caller can say so on stderr", () => {
    const s = resolve({ globals: { baseUrl: "https://x.example.com/api/v1/" } });
    expect(s.baseUrl?.value).toBe("https://x.example.com");
    expect(s.notes.join("")).toContain("--base-url ended in /api/v1");
  });

  it("refuses a blank --profile (an unset variable) rather than using the current profile", () => {
    expect(() => resolve({ globals: { profile: "" } })).toThrow(/--profile is empty/);
    expect(() => resolve({ globals: { profile: "  " }, env: { SHIPCTL_PROFILE: "home" } })).toThrow(UsageError);
  });

  it("refuses bad profile names and a token with spaces inside, without echoing the token", () => {
    expect(() => resolve({ globals: { profile: "../etc" } })).toThrow(UsageError);
    expect(() => resolve({ env: { SHIPCTL_PROFILE: "a b" } })).toThrow(/SHIPCTL_PROFILE/);
    try {
      resolve({ env: { SHIPCTL_TOKEN: "secret-part other-part" } });
      throw new Error("accepted");
    } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
      expect((e as Error).message).toContain("SHIPCTL_TOKEN");
      expect((e as Error).message).not.toContain("secret-part");
    }
  });
});

describe("a saved token is only sent to the service it was saved for", () => {
  it("withholds the profile's token when --base-url or SHIPCTL_BASE_URL names another origin", () => {
    for (const over of [{ globals: { baseUrl: "https://elsewhere.example.net" } }, { env: { SHIPCTL_BASE_URL: "https://work.example.com:8443" } }]) {
      const s = resolve(over);
      expect(s.token).toBeUndefined();
      expect(s.withheldToken).toEqual({ savedFor: "https://work.example.com" });
    }
  });

  it("withholds it, naming no service, when the profile's saved URL is no URL (the file edited by hand)", () => {
    const edited: ConfigData = { profiles: { default: { baseUrl: "work.example.com", token: "work-token-123456" } } };
    const s = resolve({ data: edited, globals: { baseUrl: "https://work.example.com" } });
    expect(s.token).toBeUndefined();
    expect(s.withheldToken).toEqual({ savedFor: "an unknown service" });
  });

  it("uses it when the override is the same origin, and always uses SHIPCTL_TOKEN", () => {
    expect(resolve({ globals: { baseUrl: "https://work.example.com/" } }).token).toEqual({ value: "work-token-123456", source: "profile" });
    const s = resolve({ globals: { baseUrl: "https://elsewhere.example.net" }, env: { SHIPCTL_TOKEN: "env-token-123456" } });
    expect(s.token).toEqual({ value: "env-token-123456", source: "env" });
    expect(s.withheldToken).toBeUndefined();
  });
});
