// The links of a Markdown page and the anchors of its headings, for the test that every link of the docs resolves.

/** GitHub's heading anchor: lower case, punctuation dropped (but - and _), spaces as -; repeats get -1, -2... */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** [text](target) outside code blocks and code spans, without the scheme links (http:, mailto:). */
export function relativeLinks(markdown: string): string[] {
  let fenced = false;
  const links: string[] = [];
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    if (fenced) continue;
    const prose = line.replace(/`[^`]*`/g, "");
    for (const match of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (!/^[a-z][a-z+.-]*:/i.test(match[1]!)) links.push(match[1]!);
    }
  }
  return links;
}
