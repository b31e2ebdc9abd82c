// At a terminal, the columns a CSV lacks are asked for, closest headers first; "none of these" stops with the error a
// run without a terminal gives.
import { describe, expect, it } from "vitest";
import { askForMissingColumns } from "../../../src/batch/column-prompt.js";
import { layoutFor } from "../../../src/csv/columns.js";
import { UsageError } from "../../../src/errors.js";
import type { Choice, Prompter } from "../../../src/prompter.js";
import { COLUMNS } from "../../../fixtures/csv/generate.mjs";

/** Answers selects in order, keeping each question and the headers it offered (in their order). */
function answering(answers: string[]): Prompter & { asked: Array<{ question: string; offered: string[] }> } {
  const asked: Array<{ question: string; offered: string[] }> = [];
  const refuse = () => Promise.reject(new Error("only selects are expected"));
  return {
    asked,
    confirm: refuse,
    input: refuse,
    password: refuse,
    select: async <T extends string>(question: string, choices: Choice<T>[]) => {
      asked.push({ question, offered: choices.map((c) => c.value) });
      const answer = answers.shift();
      if (answer === undefined) throw new Error(`unexpected prompt: ${question}`);
      return answer as T;
    },
  };
}

const create = layoutFor("shipment-create");
const own = (names: Record<string, string>) => COLUMNS.map((c) => names[c] ?? c);

describe("askForMissingColumns", () => {
  it("asks for each missing column, the closest header first, and adds the answers to the mapping", async () => {
    const header = own({ title: "Artwork", value: "Insured value" });
    const prompter = answering(["Artwork", "Insured value"]);
    const entries = await askForMissingColumns(prompter, header, create, "inventory.csv", []);
    expect(entries).toEqual([
      { header: "Artwork", column: "title" },
      { header: "Insured value", column: "value" },
    ]);
    expect(prompter.asked.map((a) => a.question)).toEqual(["inventory.csv has no title column. Which header is it?", "inventory.csv has no value column. Which header is it?"]);
    // Offered: the headers that are no column of shipctl's; "" is "none of these", last. One chosen is not offered again.
    expect(prompter.asked[0]!.offered).toEqual(["Artwork", "Insured value", ""]);
    expect(prompter.asked[1]!.offered).toEqual(["Insured value", ""]);
  });

  it("keeps the mapping it was given and asks only for what is still missing", async () => {
    const header = own({ title: "Artwork", value: "Insured value" });
    const prompter = answering(["Insured value"]);
    const entries = await askForMissingColumns(prompter, header, create, "inventory.csv", [{ header: "Artwork", column: "title" }]);
    expect(entries).toEqual([
      { header: "Artwork", column: "title" },
      { header: "Insured value", column: "value" },
    ]);
    expect(prompter.asked).toHaveLength(1);
  });

  it("stops at 'none of these' with the error a run without a terminal gives, naming every missing column", async () => {
    const header = own({ title: "Artwork", value: "Insured value" });
    const prompter = answering([""]);
    const error = await askForMissingColumns(prompter, header, create, "inventory.csv", []).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toContain("  - no title column\n");
    expect((error as UsageError).message).toContain('no value column; did you mean "Insured value" (column C)?');
    expect(prompter.asked).toHaveLength(1);
  });

  it("asks a missing address side's id first, then its own columns", async () => {
    const header = [...COLUMNS.filter((c) => !c.startsWith("fulfillment_")), "Gallery", "Gallery email", "Gallery phone", "Gallery street", "Gallery city", "Gallery state", "Gallery zip", "Gallery country"];
    const answers = ["", "Gallery", "Gallery email", "Gallery phone", "Gallery street", "Gallery city", "Gallery state", "Gallery zip", "Gallery country"];
    const prompter = answering([...answers]);
    const entries = await askForMissingColumns(prompter, header, create, "f.csv", []);
    expect(prompter.asked[0]!.question).toBe("f.csv has no fulfillment address columns. Which header holds the fulfillment address id?");
    expect(prompter.asked[2]!.offered[0]).toBe("Gallery email");
    expect(entries?.map((e) => e.column)).toEqual(["fulfillment_name", "fulfillment_email", "fulfillment_phone", "fulfillment_line_1", "fulfillment_city", "fulfillment_region", "fulfillment_post_code", "fulfillment_country"]);
  });

  it("asks for the columns of the address commands too", async () => {
    const prompter = answering(["Record"]);
    const header = ["Record", "name", "email", "phone", "line_1", "city", "region", "post_code", "country"];
    expect(await askForMissingColumns(prompter, header, layoutFor("address-update"), "a.csv", [])).toEqual([{ header: "Record", column: "id" }]);
  });

  it("asks nothing when no column is missing, or when the header has a problem no answer fixes", async () => {
    const prompter = answering([]);
    expect(await askForMissingColumns(prompter, [...COLUMNS], create, "f.csv", [])).toBeUndefined();
    expect(await askForMissingColumns(prompter, ["title", "Title", ...COLUMNS.filter((c) => c !== "title" && c !== "value")], create, "f.csv", [])).toBeUndefined();
    expect(prompter.asked).toEqual([]);
  });

  it("stops without asking when the file has no other header to offer", async () => {
    const prompter = answering([]);
    await expect(askForMissingColumns(prompter, COLUMNS.filter((c) => c !== "depth"), create, "f.csv", [])).rejects.toThrow("no depth column");
    expect(prompter.asked).toEqual([]);
  });
});
