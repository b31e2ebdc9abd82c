// --fields and --query through the real command line (the program, its global flags and a verb's wiring, as main()
// builds them): checked before anything is sent, then applied to what the run prints.
import { describe, expect, it } from "vitest";
import { buildProgram } from "../../../src/commands/program.js";
import type { CommandContext } from "../../../src/commands/action.js";
import type { PageOf, StoredShipment } from "../../../src/contract/index.js";
import { CliError, UsageError } from "../../../src/errors.js";
import { testDeps, type TestDeps } from "../../helpers/deps.js";
import { httpStubs, reply } from "../../helpers/http-stubs.js";

const BASE = "http://127.0.0.1:9/api/v1/shipments";

function shipment(id: number): StoredShipment {
  return { id, title: `Piece ${id}`, status: 1, value: 1000, service: 1, price: null, created_at: "2025-01-01 00:00:00" };
}

const onePage: PageOf<StoredShipment> = {
  data: [shipment(1), shipment(2)],
  links: { first: `${BASE}?page=1`, last: null, prev: null, next: null },
  meta: { current_page: 1, from: 1, path: BASE, per_page: 20, to: 2 },
};

/**
 * Runs `argv` as main() would parse it, with the test's deps (made with --json as the command line says, as main()
 * does); returns the exit code (what it throws, it throws).
 */
async function shipctl(t: TestDeps, argv: string[]): Promise<number> {
  t.deps.globals.json = argv.includes("--json");
  let exitCode = 0;
  const ctx: CommandContext = {
    depsFor: () => t.deps,
    setExitCode: (code) => void (exitCode = code),
    runShipctl: () => Promise.reject(new Error("not here")),
  };
  const program = buildProgram(t.deps, ctx, "0.0.0-test");
  await program.parseAsync(argv, { from: "user" });
  return exitCode;
}

const listing = () => testDeps({ http: httpStubs().on("GET /api/v1/shipments", reply.json(200, onePage), { times: "any" }) });

describe("--fields", () => {
  it("keeps exactly those fields of each listed shipment, and the rest of the document", async () => {
    const t = listing();
    expect(await shipctl(t, ["list", "shipments", "--json", "--fields", "id,status_name"])).toBe(0);
    const doc = JSON.parse(t.io.stdout()) as { shipments: object[]; next_page: unknown };
    expect(doc.shipments).toEqual([
      { id: 1, status_name: "Draft" },
      { id: 2, status_name: "Draft" },
    ]);
    expect(doc.next_page).toBeNull();
  });

  it("with --format csv: those columns, in that order, named as in JSON", async () => {
    const t = listing();
    await shipctl(t, ["list", "shipments", "--format", "csv", "--fields", "title,id,status_name"]);
    expect(t.io.stdout()).toBe("\ufefftitle,id,status_name\r\nPiece 1,1,Draft\r\nPiece 2,2,Draft\r\n");
  });

  it("an unknown field is exit 2 naming the command's valid fields, before anything is sent", async () => {
    const t = listing();
    const e = await shipctl(t, ["list", "shipments", "--json", "--fields", "id,colour"]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).message).toBe('unknown field "colour" for list shipments');
    expect((e as UsageError).hint).toMatch(/^Valid fields: id, title, .*status, status_name, .*arrived_at\.$/);
    expect(t.http.requests).toEqual([]);
    expect(t.io.stdout()).toBe("");
  });

  it("needs a data output, and says which flag gives one", async () => {
    const e = await shipctl(listing(), ["list", "shipments", "--fields", "id"]).catch((x: unknown) => x);
    expect((e as UsageError).message).toBe("--fields needs --json, --ndjson or --format json|ndjson|csv");
    const get = await shipctl(testDeps(), ["shipment", "get", "7", "--fields", "id"]).catch((x: unknown) => x);
    expect((get as UsageError).message).toBe("--fields needs --json");
    const watch = await shipctl(testDeps(), ["watch", "--fields", "id"]).catch((x: unknown) => x);
    expect((watch as UsageError).message).toBe("--fields needs --ndjson");
  });

  it("is offered only by commands that print records, each listing its fields in --help", async () => {
    await expect(shipctl(testDeps(), ["checkout", "7", "--quote", "--json", "--fields", "id"])).rejects.toThrow(/unknown option '--fields'/);
    const t = testDeps();
    await shipctl(t, ["due", "--help"]).catch(() => undefined);
    expect(t.io.stdout()).toContain("Fields (--fields): id, title, status, status_name, kind, set, closes_at");
  });
});

describe("--query", () => {
  it("applies to the command's JSON document, after --fields", async () => {
    const t = listing();
    await shipctl(t, ["list", "shipments", "--json", "--fields", "id", "--query", "shipments[].id"]);
    expect(JSON.parse(t.io.stdout())).toEqual([1, 2]);
  });

  it("applies to each NDJSON line", async () => {
    const t = listing();
    await shipctl(t, ["list", "shipments", "--ndjson", "--query", "[@][?id > `1`] | [0].title"]);
    expect(t.io.stdout()).toBe('"Piece 2"\n');
  });

  it("works on any command that prints JSON", async () => {
    const t = testDeps();
    await shipctl(t, ["help", "exit-codes", "--json", "--query", "[?code == `6`].error_codes | [0][0]"]);
    expect(JSON.parse(t.io.stdout())).toBe("rejected");
  });

  it("a bad expression, or no JSON to apply it to, is exit 2 before anything is sent", async () => {
    const t = listing();
    const e = await shipctl(t, ["list", "shipments", "--json", "--query", "shipments[?"]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).message).toMatch(/^--query "shipments\[\?" is not a valid JMESPath expression: /);
    const text = await shipctl(t, ["list", "shipments", "--query", "shipments"]).catch((x: unknown) => x);
    expect((text as UsageError).message).toBe("--query works on JSON output: add --json, --ndjson or --format json|ndjson");
    expect(t.http.requests).toEqual([]);
  });

  it("one that fails on the output prints it as it was and fails the run (exit 1)", async () => {
    const t = testDeps();
    const e = await shipctl(t, ["help", "exit-codes", "--json", "--query", "length([0].code)"]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CliError);
    expect((e as CliError).exitCode).toBe(1);
    expect((e as CliError).errorCode).toBe("query_failed");
    expect((e as CliError).message).toMatch(/^--query could not be applied .*length\(\) expected/);
    // An array cannot carry an error beside its data: printed as it was.
    expect(JSON.parse(t.io.stdout())[0]).toMatchObject({ code: 0, meaning: "success" });
  });

  it("one that fails on a document prints it as it was with the failure in it, as every failure is", async () => {
    const t = testDeps();
    const e = await shipctl(t, ["version", "--json", "--query", "abs(version)"]).catch((x: unknown) => x);
    expect((e as CliError).errorCode).toBe("query_failed");
    const doc = JSON.parse(t.io.stdout()) as Record<string, unknown>;
    expect(doc.error).toMatchObject({ code: "query_failed", exit_code: 1, message: expect.stringMatching(/abs\(\) expected/) as unknown });
  });
});
