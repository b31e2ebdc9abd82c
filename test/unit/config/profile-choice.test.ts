// Why a run uses its profile (`auth status`, `profile list`): each way of choosing one, in precedence order, and the
// refusal of a name the config file does not have.
import { describe, expect, it } from "vitest";
import { profileChoice, requireSavedProfile } from "../../../src/config/profile-choice.js";
import { resolveProfileName } from "../../../src/config/settings.js";
import { UsageError } from "../../../src/errors.js";
import type { ConfigData } from "../../../src/config/schema.js";

const data: ConfigData = { currentProfile: "work", profiles: { work: {}, lab: {} } };
const choose = (globals: { profile?: string }, env: NodeJS.ProcessEnv, d: ConfigData = data) =>
  profileChoice(resolveProfileName({ globals, env, data: d, configPath: "/cfg/config.json" }));

describe("profileChoice", () => {
  it("names the flag, then SHIPCTL_PROFILE, then the saved current profile, then the default", () => {
    expect(choose({ profile: "lab" }, { SHIPCTL_PROFILE: "work" })).toEqual({ name: "lab", source: "flag", why: "--profile flag" });
    expect(choose({}, { SHIPCTL_PROFILE: "lab" })).toEqual({ name: "lab", source: "env", why: "SHIPCTL_PROFILE" });
    expect(choose({}, {})).toEqual({ name: "work", source: "current", why: "saved as current" });
    expect(choose({}, {}, { profiles: {} })).toEqual({ name: "default", source: "default", why: "default: none chosen" });
  });

  it("reads an empty SHIPCTL_PROFILE as unset", () => {
    expect(choose({}, { SHIPCTL_PROFILE: " " }).source).toBe("current");
  });
});

describe("requireSavedProfile", () => {
  it("passes a saved profile, and refuses another name with exit 2, listing the saved ones", () => {
    expect(() => requireSavedProfile(data, "lab", "use")).not.toThrow();
    const e = (() => {
      try {
        requireSavedProfile(data, "constructor", "use");
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).exitCode).toBe(2);
    expect((e as UsageError).message).toBe('there is no profile "constructor"; profiles: lab, work');
    expect(() => requireSavedProfile({ profiles: {} }, "x", "remove")).toThrow("no profile is saved");
  });
});
