// The help topics, one entry each: `shipctl help NAME` prints one, `shipctl help` and `shipctl --help` list them all
// (name and summary), and an unknown name lists them. Adding a topic is adding its entry here. A topic's text lives
// in its own module, imported only when the topic is asked for: the list is built into every run's program.

export interface HelpTopic {
  name: string;
  /** One line for the lists. */
  summary: string;
  /** What `shipctl help NAME` prints. */
  text(): Promise<string>;
  /** What `shipctl help NAME --json` prints, for a topic that is a table a script can read; without it --json is refused. */
  json?(): Promise<unknown>;
}

export const HELP_TOPICS: readonly HelpTopic[] = [
  {
    name: "exit-codes",
    summary: "what each exit code means, and the --json error codes under it",
    text: async () => (await import("./exit-codes.js")).exitCodesText(),
    json: async () => (await import("./exit-codes.js")).exitCodesJson(),
  },
  {
    name: "environment",
    summary: "the environment variables shipctl reads: SHIPCTL_*, NO_COLOR, CI, proxies, CA certificates",
    text: async () => (await import("./environment.js")).environmentText(),
    json: async () => (await import("./environment.js")).environmentJson(),
  },
  {
    name: "formatting",
    summary: "output for scripts: --json, --ndjson, CSV, --fields and --query (JMESPath), with examples",
    text: async () => (await import("./formatting.js")).FORMATTING_HELP,
  },
  {
    name: "round-trip",
    summary: "the spreadsheet loop, worked: rehearse, fix, rerun, export, edit, pay",
    text: async () => (await import("./round-trip.js")).ROUND_TRIP_HELP,
  },
];

export function findHelpTopic(name: string): HelpTopic | undefined {
  return HELP_TOPICS.find((topic) => topic.name === name);
}

/** The topics as the root help lists them: a heading, then one line each, names aligned. */
export function helpTopicsList(): string {
  const width = Math.max(...HELP_TOPICS.map((t) => t.name.length)) + 2;
  return `Help topics (shipctl help TOPIC):\n${HELP_TOPICS.map((t) => `  ${t.name.padEnd(width)}${t.summary}\n`).join("")}`;
}
