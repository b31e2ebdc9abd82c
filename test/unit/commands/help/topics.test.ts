// The help topics are one list: each has a unique name, a one-line summary and a text; the root help lists them all.
import { describe, expect, it } from "vitest";
import { findHelpTopic, HELP_TOPICS, helpTopicsList } from "../../../../src/commands/help/topics.js";

describe("help topics", () => {
  it("each has a unique name, one line of summary and a text", async () => {
    const names = HELP_TOPICS.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(["exit-codes", "environment", "round-trip"]));
    for (const topic of HELP_TOPICS) {
      expect(topic.name).toMatch(/^[a-z][a-z-]*$/);
      expect(topic.summary).not.toContain("\n");
      expect((await topic.text()).length, topic.name).toBeGreaterThan(100);
    }
  });

  it("has JSON where the topic is a table", async () => {
    expect(await findHelpTopic("exit-codes")!.json!()).toEqual(expect.arrayContaining([expect.objectContaining({ code: 2, error_codes: ["usage_error"] })]));
    expect(await findHelpTopic("environment")!.json!()).toEqual(expect.arrayContaining([expect.objectContaining({ names: ["SHIPCTL_TOKEN"] })]));
    expect(findHelpTopic("round-trip")!.json).toBeUndefined();
    expect(findHelpTopic("no-such-topic")).toBeUndefined();
  });

  it("are listed one a line, name and summary, names aligned", () => {
    const lines = helpTopicsList().split("\n").filter(Boolean);
    expect(lines[0]).toBe("Help topics (shipctl help TOPIC):");
    expect(lines.slice(1)).toHaveLength(HELP_TOPICS.length);
    const column = lines[1]!.indexOf(HELP_TOPICS[0]!.summary);
    HELP_TOPICS.forEach((t, i) => expect(lines[i + 1]).toBe(`  ${t.name.padEnd(column - 2)}${t.summary}`));
  });
});
