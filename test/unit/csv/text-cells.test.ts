// Text cells: control characters named, line breaks and tabs folded.
import { describe, expect, it } from "vitest";
import { controlCharacterProblem, foldedText } from "../../../src/csv/text-cells.js";
import type { Change } from "../../../src/csv/row-types.js";

describe("controlCharacterProblem", () => {
  it("names C0 and C1 control characters, but not the tab and line breaks that fold", () => {
    expect(controlCharacterProblem("a\u0000b", "title")?.reason).toMatch(/^title holds the control character U\+0000 \(NUL\) at character 2,/);
    expect(controlCharacterProblem("x\u0085", "city")?.reason).toMatch(/U\+0085 at character 2/);
    expect(controlCharacterProblem("\u007f", "city")?.reason).toMatch(/U\+007F \(delete\)/);
    for (const clean of ["plain", "tab\there", "two\r\nlines", "日本の風景", "Île-de-France"]) expect(controlCharacterProblem(clean, "c")).toBeUndefined();
  });
});

describe("foldedText", () => {
  it("folds each run of line breaks and tabs, with the spaces beside it, to one space, noting it", () => {
    const changes: Change[] = [];
    expect(foldedText("  Blue \r\n\r\n Study\tNo. 2 ", "title", changes)).toBe("Blue Study No. 2");
    expect(foldedText(" plain ", "title", changes)).toBe("plain");
    expect(changes).toEqual([{ column: "title", from: "Blue \r\n\r\n Study\tNo. 2", to: "Blue Study No. 2", kind: "line-break" }]);
  });
});
