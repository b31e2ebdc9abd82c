// One separator per path in messages, the platform injected: Windows joins with `\` throughout.
import { describe, expect, it } from "vitest";
import { displayPath } from "../../../src/output/display-path.js";

describe("displayPath", () => {
  it("on Windows, a folder typed with \\ and a file named with / are shown with \\ only", () => {
    expect(displayPath("C:\\Users\\ann\\photos\\7", "art/front.jpg", "win32")).toBe("C:\\Users\\ann\\photos\\7\\art\\front.jpg");
    expect(displayPath("D:/reports/", "7", "win32")).toBe("D:\\reports\\7");
  });

  it("on macOS and Linux, the folder as typed, then /", () => {
    expect(displayPath("./photos/", "3", "darwin")).toBe("./photos/3");
    expect(displayPath("/srv/my photos", "art/front.jpg", "linux")).toBe("/srv/my photos/art/front.jpg");
  });
});
