import { describe, expect, it, beforeAll } from "vitest";
import { diffFields, renderDiff } from "../../../src/output/diff.js";
import { createTheme, loadColours } from "../../../src/output/theme.js";

beforeAll(loadColours);

describe("field diffs", () => {
  const before = { name: "Ada", line_1: "1 main street", city: "Denver", post_code: "80202", line_2: null };
  const after = { name: "Ada", line_1: "1 Main St", city: "Denver", post_code: 80202, line_2: "Apt 4" };

  it("lists only the fields whose shown values differ, in the given order", () => {
    expect(diffFields(before, after, ["name", "line_1", "line_2", "city", "post_code"])).toEqual([
      { field: "line_1", before: "1 main street", after: "1 Main St" },
      { field: "line_2", before: null, after: "Apt 4" },
    ]);
  });

  it("treats null and missing alike", () => {
    expect(diffFields({ a: 1, b: null }, { a: 2, c: 3 }, ["a", "b", "c"]).map((c) => c.field)).toEqual(["a", "c"]);
  });

  it("renders one aligned `field: old -> new` line per change", () => {
    const text = renderDiff(diffFields(before, after, ["line_1", "line_2"]));
    expect(text).toBe("  line_1: 1 main street -> 1 Main St\n  line_2: (empty) -> Apt 4\n");
  });

  it("colours old and new values only with a colour theme", () => {
    const text = renderDiff([{ field: "city", before: "Denvr", after: "Denver" }], { theme: createTheme(true), indent: "" });
    expect(text).toBe("city: \x1b[31mDenvr\x1b[39m -> \x1b[32mDenver\x1b[39m\n");
  });
});
