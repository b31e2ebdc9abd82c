// sharp is loaded in one place, reports/sharp-module.ts, and only by import() when a report workflow asks for it
// (issue 24): a static import anywhere would load it with the first chunk that holds that file, so a command without
// photos could fail where sharp has no build, and a failure outside loadSharp would be "a bug in shipctl".
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const SRC = resolve(import.meta.dirname, "../../../src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith(".ts") ? [path] : [];
  });
}

/** How each file of src/ brings in sharp's code: `static` (import ... from, export ... from), `dynamic` (import()). Type imports bring none. */
function sharpImports(): { file: string; kind: "static" | "dynamic" }[] {
  return sources(SRC).flatMap((path) => {
    const text = readFileSync(path, "utf8");
    const file = relative(SRC, path).split("\\").join("/");
    const found: { file: string; kind: "static" | "dynamic" }[] = [];
    for (const m of text.matchAll(/^\s*(import|export)(\s+type)?\b[^;]*?\bfrom\s+["']sharp(?:\/[^"']*)?["']|^\s*import\s+["']sharp["']/gm)) {
      if (!m[2]) found.push({ file, kind: "static" });
    }
    if (/\bimport\(\s*["']sharp(?:\/[^"']*)?["']\s*\)/.test(text)) found.push({ file, kind: "dynamic" });
    return found;
  });
}

describe("sharp, the image library", () => {
  it("is imported by reports/sharp-module.ts alone, with import(), never statically", () => {
    expect(sharpImports()).toEqual([{ file: "reports/sharp-module.ts", kind: "dynamic" }]);
  });
});
