// Every relative link of README.md and docs/*.md leads somewhere: the file exists, and a #fragment names a heading of
// that page (as GitHub makes heading anchors). Pages added to docs/ are checked as they come.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { documentationPages } from "../helpers/doc-examples.js";
import { headingAnchors, relativeLinks } from "../helpers/doc-links.js";

const ROOT = resolve(import.meta.dirname, "../..");

describe("headingAnchors", () => {
  it("makes GitHub's anchors", () => {
    const anchors = headingAnchors("# Paying: `shipctl checkout`\n## In flight: a payment\n## Pay what a batch made: `--from`\n## Faults\n## Faults\n");
    expect([...anchors]).toEqual(["paying-shipctl-checkout", "in-flight-a-payment", "pay-what-a-batch-made---from", "faults", "faults-1"]);
  });
});

describe.each(documentationPages(ROOT))("the links of %s", (page) => {
  it("lead to a file that exists, and to a heading of it", () => {
    const broken = relativeLinks(readFileSync(join(ROOT, page), "utf8")).filter((link) => {
      const [path, fragment] = link.split("#") as [string, string | undefined];
      const target = path === "" ? join(ROOT, page) : resolve(ROOT, dirname(page), decodeURIComponent(path));
      if (!existsSync(target)) return true;
      if (fragment === undefined || statSync(target).isDirectory()) return false;
      return !headingAnchors(readFileSync(target, "utf8")).has(decodeURIComponent(fragment).toLowerCase());
    });
    expect(broken).toEqual([]);
  });
});
