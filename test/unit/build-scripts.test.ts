import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

// The build bundles dependencies as published: no script reads or rewrites a file of an installed package
// (issue 11). Naming the folder at all is where that starts.
describe("scripts/", () => {
  it("never names node_modules", () => {
    const dir = resolve(import.meta.dirname, "../../scripts");
    const naming = readdirSync(dir).filter((name) => readFileSync(join(dir, name), "utf8").includes("node_modules"));
    expect(naming).toEqual([]);
  });
});
