// One tool call: the arguments checked, the command line built, the command run with a captured stdout, and its
// document returned (a failure as a tool error). The command is a fake here: what it received is checked.
import { describe, expect, it } from "vitest";
import type { BaseDeps } from "../../../src/deps.js";
import { ExitCode } from "../../../src/errors.js";
import { callTool, type CallContext } from "../../../src/mcp/tool-call.js";
import { READ_TOOLS, due, getShipment, listShipments, quoteCheckout } from "../../../src/mcp/read-tools.js";
import { WRITE_TOOLS, checkout, createShipments } from "../../../src/mcp/write-tools.js";
import { createTestIO } from "../../helpers/test-io.js";

function context(answer: (argv: string[], base: BaseDeps) => Promise<number>) {
  const runs: Array<{ argv: string[]; stdin: string; prompted?: string }> = [];
  const talk: string[] = [];
  const ctx: CallContext = {
    base: { io: createTestIO(), prompter: undefined as never, clock: undefined as never, env: {}, cwd: "/", signal: new AbortController().signal, connect: undefined as never, makeApi: undefined as never },
    globalArgs: ["--profile=gallery"],
    talk: (t) => void talk.push(t),
    async runShipctl(argv, base) {
      const chunks: Buffer[] = [];
      for await (const c of base.io.stdin) chunks.push(c as Buffer);
      const run: { argv: string[]; stdin: string; prompted?: string } = { argv, stdin: Buffer.concat(chunks).toString("utf8") };
      runs.push(run);
      await base.prompter.confirm("Charge $1.00?").catch((e: Error) => (run.prompted = e.message));
      return answer(argv, base);
    },
  };
  return { ctx, runs, talk };
}

const text = (r: { content: Array<{ text: string }> }) => JSON.parse(r.content[0]!.text) as Record<string, unknown>;

describe("callTool", () => {
  it("runs the command with --json, --no-input and the server's flags; stdout is the result, talk goes to stderr", async () => {
    const { ctx, runs, talk } = context(async (_argv, base) => {
      base.io.out('{"id": 7}\n');
      base.io.err("Reading shipment 7\n");
      return ExitCode.Ok;
    });
    const r = await callTool(getShipment, { id: 7 }, ctx);
    expect(runs[0]!.argv).toEqual(["--json", "--no-input", "--profile=gallery", "shipment", "get", "7"]);
    expect(r).toMatchObject({ isError: false });
    expect(text(r)).toEqual({ id: 7 });
    expect(talk).toEqual(["Reading shipment 7\n"]);
  });

  it("gives the items as the command's stdin (--file -), and its prompter refuses without reading anything", async () => {
    const { ctx, runs } = context(async (_argv, base) => (base.io.out("{}"), ExitCode.Ok));
    const items = [{ title: "Blue Study", value: 20 }];
    await callTool(createShipments, { items }, ctx);
    expect(runs[0]!.argv.slice(3)).toEqual(["shipment", "create", "--file", "-", "--no-wait"]);
    expect(JSON.parse(runs[0]!.stdin)).toEqual(items);
    expect(runs[0]!.prompted).toMatch(/no one can answer a prompt over MCP/);
  });

  it("list_shipments says that after max cut a page short, next_page is that page again (the same call repeats it)", () => {
    const max = listShipments.input.shape.max as { description?: string };
    expect(max.description).toMatch(/part way through a page, next_page is that same page/);
  });

  it("refuses a report set other than 1 or 2 naming the sets it takes", async () => {
    const { ctx, runs } = context(async () => ExitCode.Ok);
    const upload = WRITE_TOOLS.find((t) => t.name === "upload_report")!;
    for (const set of [3, "1"]) {
      const r = await callTool(upload, { shipment_id: 5, folder: "set", set }, ctx);
      expect(text(r)).toMatchObject({ error: { code: "usage_error", problems: [{ field: "set", message: `Invalid option: expected one of 1|2 (got ${JSON.stringify(set)})` }] } });
    }
    expect(runs).toEqual([]);
  });

  it("refuses arguments outside the schema before running anything: the usage error document, a tool error", async () => {
    const { ctx, runs } = context(async () => ExitCode.Ok);
    const r = await callTool(quoteCheckout, { ids: [] }, ctx);
    expect(runs).toEqual([]);
    expect(r.isError).toBe(true);
    expect(text(r)).toMatchObject({ error: { code: "usage_error", exit_code: 2, problems: [{ field: "ids" }] } });
    const unknown = await callTool(getShipment, { id: 1, extra: true }, ctx);
    expect(text(unknown)).toMatchObject({ error: { problems: [{ field: "extra", message: "is not a known field" }] } });
  });

  it("a failed command's own document is the tool error; without one, the exit code's error document", async () => {
    const own = context(async (_argv, base) => (base.io.out('{"status": "total-not-confirmed", "error": {"exit_code": 2}}'), ExitCode.Usage));
    const r = await callTool(checkout, { ids: [1], confirm_total_cents: 1050 }, own.ctx);
    expect(own.runs[0]!.argv.slice(3)).toEqual(["checkout", "1", "--yes", "--no-wait", "--confirm-total=10.50"]);
    expect(r.isError).toBe(true);
    expect(text(r)).toMatchObject({ status: "total-not-confirmed" });
    const bare = context(async () => ExitCode.Unavailable);
    expect(text(await callTool(getShipment, { id: 1 }, bare.ctx))).toMatchObject({ error: { code: "unavailable", exit_code: 7 } });
  });

  it("due's exit 10 (a report window open) is an answer, not a tool error", async () => {
    const { ctx } = context(async (_argv, base) => (base.io.out('{"due": []}'), ExitCode.Due));
    expect((await callTool(due, {}, ctx)).isError).toBe(false);
  });

  it("quote_checkout adds confirm_total_cents, the quoted total", async () => {
    const { ctx } = context(async (_argv, base) => (base.io.out('{"status": "quoted", "total": 4500}'), ExitCode.Ok));
    expect(text(await callTool(quoteCheckout, { ids: [3, 4] }, ctx))).toEqual({ status: "quoted", total: 4500, confirm_total_cents: 4500 });
  });

  it("a value starting with a dash stays a value: flags are written --flag=value, and a folder comes after --", async () => {
    const { ctx, runs } = context(async (_argv, base) => (base.io.out("{}"), ExitCode.Ok));
    await callTool(READ_TOOLS.find((t) => t.name === "list_shipments")!, { title: "--all", status: ["Draft", "Confirmed"] }, ctx);
    expect(runs[0]!.argv.slice(3)).toEqual(["list", "shipments", "--status=Draft", "--status=Confirmed", "--title=--all", "--fields=id,title,status_name,price,created_at"]);
    await callTool(WRITE_TOOLS.find((t) => t.name === "upload_report")!, { shipment_id: 5, folder: "-x", set: 2 }, ctx);
    expect(runs[1]!.argv.slice(3)).toEqual(["report", "upload", "--no-wait", "--set=2", "--", "5", "-x"]);
  });

  it("upload_report sends reused photos only when allow_reused says so", async () => {
    const { ctx, runs } = context(async (_argv, base) => (base.io.out("{}"), ExitCode.Ok));
    const upload = WRITE_TOOLS.find((t) => t.name === "upload_report")!;
    await callTool(upload, { shipment_id: 5, folder: "set", set: 1, allow_reused: true }, ctx);
    await callTool(upload, { shipment_id: 5, folder: "set", set: 1 }, ctx);
    expect(runs[0]!.argv.slice(3)).toEqual(["report", "upload", "--no-wait", "--set=1", "--allow-reused", "--", "5", "set"]);
    expect(runs[1]!.argv).not.toContain("--allow-reused");
  });
});
