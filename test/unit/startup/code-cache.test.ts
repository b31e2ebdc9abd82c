import { describe, expect, it } from "vitest";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScriptLoader, defaultCacheDir } from "../../../src/code-cache.js";

// V8 keeps scripts it compiled in memory, by source and file name: each load below uses its own folder, so V8 has to
// compile (or take the code cache) every time, as a new process would.
function scriptIn(dir: string, name: string, body: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, body);
  return file;
}

const BODY = `
const path = require("node:path");
function greet(who) { return "hello " + who + " from " + path.basename(__filename); }
module.exports = { greet, self: this === module.exports };
`;

function setup() {
  const root = mkdtempSync(join(tmpdir(), "shipctl-code-cache-"));
  return { root, cache: join(root, "cache") };
}

describe("createScriptLoader", () => {
  it("runs the script as CommonJS, then writes its code cache, which the next run takes", () => {
    const { root, cache } = setup();
    const first = createScriptLoader(cache);
    const exports = first.load(scriptIn(join(root, "a"), "lib-0123abcd.cjs", BODY)) as { greet(w: string): string; self: boolean };
    expect(exports.greet("tests")).toBe("hello tests from lib-0123abcd.cjs");
    expect(exports.self).toBe(true);
    expect(first.outcomes.get("lib-0123abcd.cjs")).toBe("absent");
    first.save();
    const written = readdirSync(cache);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^lib-0123abcd\.cjs\..+\.v8cache$/);
    expect(statSync(join(cache, written[0]!)).size).toBeGreaterThan(0);

    const second = createScriptLoader(cache);
    const again = second.load(scriptIn(join(root, "b"), "lib-0123abcd.cjs", BODY)) as { greet(w: string): string };
    expect(second.outcomes.get("lib-0123abcd.cjs")).toBe("used");
    expect(again.greet("again")).toBe("hello again from lib-0123abcd.cjs");
    const before = readFileSync(join(cache, written[0]!));
    second.save();
    // A cache that was taken is not written again.
    expect(readFileSync(join(cache, written[0]!)).equals(before)).toBe(true);
  });

  it("loads a script once per process: every import shares one instance", () => {
    const { root, cache } = setup();
    const loader = createScriptLoader(cache);
    const file = scriptIn(join(root, "a"), "once-0123abcd.cjs", `${BODY}\nmodule.exports.made = {};`);
    expect(loader.load(file)).toBe(loader.load(file));
  });

  it("compiles as usual over a corrupt cache, and replaces it", () => {
    const { root, cache } = setup();
    const first = createScriptLoader(cache);
    first.load(scriptIn(join(root, "a"), "lib-feedf00d.cjs", BODY));
    first.save();
    const [name] = readdirSync(cache);
    writeFileSync(join(cache, name!), "not a code cache at all");

    const second = createScriptLoader(cache);
    const exports = second.load(scriptIn(join(root, "b"), "lib-feedf00d.cjs", BODY)) as { greet(w: string): string };
    expect(second.outcomes.get("lib-feedf00d.cjs")).toBe("rejected");
    expect(exports.greet("anyway")).toBe("hello anyway from lib-feedf00d.cjs");
    second.save();

    const third = createScriptLoader(cache);
    third.load(scriptIn(join(root, "c"), "lib-feedf00d.cjs", BODY));
    expect(third.outcomes.get("lib-feedf00d.cjs")).toBe("used");
  });

  it("keeps working, silently, where the cache folder cannot be made", () => {
    const { root } = setup();
    const blocker = join(root, "a-file");
    writeFileSync(blocker, "");
    const loader = createScriptLoader(join(blocker, "cache"));
    const exports = loader.load(scriptIn(join(root, "a"), "lib-0badc0de.cjs", BODY)) as { greet(w: string): string };
    expect(exports.greet("still")).toBe("hello still from lib-0badc0de.cjs");
    expect(() => loader.save()).not.toThrow();
    expect(readdirSync(root).sort()).toEqual(["a", "a-file"]);
  });

  it("drops the caches of earlier builds of the same script, and keeps everything else", () => {
    const { root, cache } = setup();
    const old = createScriptLoader(cache);
    old.load(scriptIn(join(root, "a"), "vendor-111111111111.cjs", BODY));
    old.save();
    writeFileSync(join(cache, "other-222222222222.cjs.v20-x64-a.v8cache"), "another script's cache");
    writeFileSync(join(cache, "vendor-333333333333.cjs.v99.0.0-arm64-b.v8cache"), "an older build, another node");

    const next = createScriptLoader(cache);
    next.load(scriptIn(join(root, "b"), "vendor-444444444444.cjs", `${BODY}\n// a new build`));
    next.save();
    const left = readdirSync(cache).sort();
    expect(left).toHaveLength(2);
    expect(left[0]).toBe("other-222222222222.cjs.v20-x64-a.v8cache");
    expect(left[1]).toMatch(/^vendor-444444444444\.cjs\./);
  });

  it("uses no cache without a folder", () => {
    const { root } = setup();
    const loader = createScriptLoader(undefined);
    loader.load(scriptIn(join(root, "a"), "lib-00000000.cjs", BODY));
    expect(loader.outcomes.get("lib-00000000.cjs")).toBe("off");
    loader.save();
    expect(readdirSync(root)).toEqual(["a"]);
  });
});

describe("defaultCacheDir", () => {
  it("takes SHIPCTL_CACHE_DIR, where an empty value turns the cache off", () => {
    expect(defaultCacheDir({ SHIPCTL_CACHE_DIR: "/somewhere" }, "linux")).toBe("/somewhere");
    expect(defaultCacheDir({ SHIPCTL_CACHE_DIR: "" }, "linux")).toBeUndefined();
  });

  it("uses the platform's cache folder otherwise", () => {
    expect(defaultCacheDir({ XDG_CACHE_HOME: "/xdg" }, "linux")).toBe(join("/xdg", "shipctl", "code"));
    expect(defaultCacheDir({}, "linux")).toMatch(/[/\\]\.cache[/\\]shipctl[/\\]code$/);
    // The XDG spec: a relative XDG_CACHE_HOME is ignored.
    expect(defaultCacheDir({ XDG_CACHE_HOME: "relative/dir" }, "linux")).toMatch(/^[/\\].*[/\\]\.cache[/\\]shipctl[/\\]code$/);
    expect(defaultCacheDir({}, "darwin")).toMatch(/Library[/\\]Caches[/\\]shipctl[/\\]code$/);
    expect(defaultCacheDir({ LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" }, "win32")).toBe(
      join("C:\\Users\\u\\AppData\\Local", "shipctl", "Cache", "code"),
    );
  });
});
