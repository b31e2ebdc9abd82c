// `checkout <id>...`: the command line to options, nothing run (the --yes-without-a-terminal check needs deps: it is
// the run's, in test/unit/checkout/run.test.ts).
import { describe, expect, it } from "vitest";
import { checkoutCommand, parseDollars, parseShipmentIds } from "../../../../src/commands/checkout/checkout.js";
import { UsageError } from "../../../../src/errors.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

const parse = (argv: string[]) => parsedOptions(checkoutCommand, argv);

describe("checkout (parse only)", () => {
  it("defaults: ask before paying, no limit, 60 s between 3 retries, wait for an earlier payment", async () => {
    expect(await parse(["125"])).toEqual({ ids: [125], quote: false, yes: false, maxTotalCents: undefined, retryWaitSeconds: 60, retries: 3, wait: true });
  });

  it("--yes (and -y), --max-total, --retry-wait, --retries and --no-wait", async () => {
    expect(await parse(["125", "126", "--yes", "--max-total", "249.99", "--retry-wait", "0", "--retries", "5", "--no-wait"])).toEqual({
      ids: [125, 126],
      yes: true,
      maxTotalCents: 24999,
      retryWaitSeconds: 0,
      retries: 5,
      wait: false,
      quote: false,
    });
    expect(await parse(["125", "-y"])).toMatchObject({ yes: true });
  });

  it("--confirm-total: the exact total to pay, in dollars, read into cents", async () => {
    expect(await parse(["125", "--yes", "--confirm-total", "105.5"])).toMatchObject({ confirmTotalCents: 10550 });
    expect(await parse(["125", "--yes"])).not.toHaveProperty("confirmTotalCents");
  });

  it("needs at least one id, or --from (exit 2, with an example of each)", async () => {
    const e = await parse([]).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(UsageError);
    expect(e).toMatchObject({ message: "no shipment ids given", hint: expect.stringContaining("--from results.csv") });
  });

  it("--from FILE or -: the ids are read when the command runs; --quote", async () => {
    expect(await parse(["--from", "r.csv"])).toMatchObject({ ids: [], from: "r.csv", quote: false });
    expect(await parse(["--from", "-", "--quote"])).toMatchObject({ ids: [], from: "-", quote: true });
    expect(await parse(["12", "13", "--quote"])).toMatchObject({ ids: [12, 13], quote: true });
  });

  it("refuses ids as arguments together with --from (exit 2), rather than guess which was meant", async () => {
    const e = await parse(["12", "--from", "r.csv"]).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).message).toBe("give shipment ids as arguments or --from, not both");
  });

  it.each([
    [["1", "--retry-wait", "1.5"], '--retry-wait "1.5" is not a whole number of seconds'],
    [["1", "--retry-wait", "-1"], '--retry-wait "-1"'],
    [["1", "--retries", "many"], '--retries "many" is not a whole number'],
    [["1", "--max-total", "12.345"], '--max-total "12.345" is not an amount in dollars'],
    [["1", "--confirm-total", "ten"], '--confirm-total "ten" is not an amount in dollars'],
    [["1", "0"], 'shipment id must be a positive whole number (got "0")'],
  ])("refuses %j naming it (exit 2)", async (argv, message) => {
    const e = await parse(argv).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).message).toContain(message);
  });
});

describe("checkout ids", () => {
  it("takes separate and comma-separated ids, in order", () => {
    expect(parseShipmentIds(["12", "7,9", " 30 "])).toEqual([12, 7, 9, 30]);
  });

  it.each(["abc", "0", "-1", "1.5", "1e3", "12a"])("refuses %s naming it", (bad) => {
    expect(() => parseShipmentIds(["5", bad])).toThrowError(UsageError);
    expect(() => parseShipmentIds(["5", bad])).toThrowError(`shipment id must be a positive whole number (got ${JSON.stringify(bad)})`);
  });

  it("refuses an id of too many digits as too large", () => {
    expect(() => parseShipmentIds(["5", "99999999999999999999"])).toThrowError('shipment id is too large (got "99999999999999999999")');
  });

  it("refuses a duplicate, also across commas", () => {
    expect(() => parseShipmentIds(["5", "6,5"])).toThrowError("shipment id 5 is given more than once");
  });

  it("refuses a blank argument among ids (an unset variable), naming its place; a trailing comma names nothing", () => {
    expect(() => parseShipmentIds(["12", ""])).toThrowError("shipment id argument 2 of 2 is blank (an unset variable?); nothing was priced or paid");
    expect(() => parseShipmentIds([" ", "12"])).toThrowError("shipment id argument 1 of 2 is blank");
    expect(parseShipmentIds(["12,13,"])).toEqual([12, 13]);
  });

  it("refuses an empty list", () => {
    expect(() => parseShipmentIds([","])).toThrowError("no shipment ids given");
  });
});

describe("--max-total", () => {
  it.each([
    ["250", 25000],
    ["249.99", 24999],
    ["249.9", 24990],
    ["$1,250.50", 125050],
    ["0", 0],
  ])("reads %s as %i cents", (text, cents) => {
    expect(parseDollars(text, "--max-total")).toBe(cents);
  });

  it.each(["12.345", "abc", "-5", "", "1,25"])("refuses %j with an example", (bad) => {
    expect(() => parseDollars(bad, "--max-total")).toThrowError(/--max-total ".*" is not an amount in dollars/);
  });
});
