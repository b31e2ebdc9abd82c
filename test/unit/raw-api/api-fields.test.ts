// -F/-f fields and -H headers of `shipctl api`, read as gh reads them.
import { describe, expect, it } from "vitest";
import { appendQuery, fieldsObject, parseFieldArg, queryPairs } from "../../../src/raw-api/api-fields.js";
import { parseHeaderArgs } from "../../../src/raw-api/api-headers.js";
import { UsageError } from "../../../src/errors.js";

const files: Record<string, string> = { "note.txt": "line one\nline two\n", "-": "from stdin" };
const fileText = async (path: string) => files[path] ?? Promise.reject(new UsageError(`cannot read ${path}`));
const build = (raw: string[], typed: string[] = []) =>
  fieldsObject([...raw.map((f) => parseFieldArg(f, false)), ...typed.map((f) => parseFieldArg(f, true))], fileText);
const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe("fields", () => {
  it("-F types numbers, true, false, null and @FILE; -f keeps strings", async () => {
    const fields = await build(["s=12", "t=true"], ["n=12", "d=-1.5", "b=true", "f=false", "z=null", "zip=02134", "w=hello", "file=@note.txt", "in=@-", "e="]);
    expect(plain(fields)).toEqual({
      s: "12",
      t: "true",
      n: 12,
      d: -1.5,
      b: true,
      f: false,
      z: null,
      zip: "02134",
      w: "hello",
      file: "line one\nline two\n",
      in: "from stdin",
      e: "",
    });
  });

  it("-F refuses a number JSON cannot carry as written, rather than send another one", async () => {
    // 12345678901234567890 was sent as 12345678901234567000, and 1e400 as null.
    for (const text of ["12345678901234567890", "-9007199254740993", "1e400"]) {
      const refused = `-F "id=${text}": ${text} is not a number JSON carries exactly; send it as text with -f "id=${text}"`;
      await expect(build([], [`id=${text}`])).rejects.toThrow(refused);
    }
    const kept = await build([], ["max=9007199254740991", "e=1e3", "x=0.1"]);
    expect(plain(kept)).toEqual({ max: 9007199254740991, e: 1000, x: 0.1 });
  });

  it("-F key=@ with no file name (an unset variable) is refused naming the field, not read as a folder", async () => {
    await expect(build([], ["note=@"])).rejects.toThrow("-F note=@ needs a file name after @ (or @- for stdin)");
    await expect(build([], ["note=@  "])).rejects.toThrow("-F note=@ needs a file name");
    expect(plain(await build(["raw=@"]))).toEqual({ raw: "@" });
  });

  it("nests a[b] and appends a[]; a[] alone is an empty array; the value keeps later = signs", async () => {
    const fields = await build(["a[b][c]=x", "q=a=b"], ["a[d]=1", "ids[]=1", "ids[]=2", "none[]", "a[list][]=3"]);
    expect(plain(fields)).toEqual({ a: { b: { c: "x" }, d: 1, list: [3] }, q: "a=b", ids: [1, 2], none: [] });
  });

  it("__proto__ is a key like any other", async () => {
    const fields = await build(["__proto__[x]=1"]);
    expect(JSON.stringify(fields)).toBe('{"__proto__":{"x":"1"}}');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it("refuses what cannot be read: no value, arrays of objects, a key given twice, a value and an object at once", async () => {
    expect(() => parseFieldArg("title", true)).toThrow('-F "title" needs a value: title=VALUE');
    expect(() => parseFieldArg("a[][b]=1", false)).toThrow(/arrays of objects/);
    expect(() => parseFieldArg("=1", false)).toThrow(/is not key=value/);
    expect(() => parseFieldArg("a[b=1", false)).toThrow(/is not key=value/);
    await expect(build(["a=1", "a=2"])).rejects.toThrow('field "a" is given twice');
    await expect(build(["a=1", "a[b]=2"])).rejects.toThrow('field "a[b]": a already holds a value that is not an object');
    await expect(build(["a=1", "a[]=2"])).rejects.toThrow(/not an array/);
  });

  it("become a query in bracket form, after the path's own query kept as written", async () => {
    const fields = await build(["title=Blue Horse&co", "a[b]=1"], ["ids[]=1", "ids[]=2", "z=null"]);
    expect(queryPairs(fields)).toEqual([["title", "Blue Horse&co"], ["a[b]", "1"], ["ids[]", "1"], ["ids[]", "2"], ["z", ""]]);
    const url = new URL("https://api.example.com/api/v1/x?keep=a%20b+c");
    appendQuery(url, queryPairs(fields));
    expect(url.search).toBe("?keep=a%20b+c&title=Blue%20Horse%26co&a[b]=1&ids[]=1&ids[]=2&z=");
    const bare = new URL("https://api.example.com/api/v1/x");
    appendQuery(bare, []);
    expect(bare.href).toBe("https://api.example.com/api/v1/x");
  });
});

describe("headers", () => {
  it("Name: value, names in lower case", () => {
    expect(parseHeaderArgs(["Accept: text/plain", "X-Trace:abc: def", "x-trace: again"])).toEqual({ accept: "text/plain", "x-trace": "again" });
  });

  it("reads names an object has of its own (constructor, __proto__) as header names", () => {
    const headers = parseHeaderArgs(["Constructor: a", "__proto__: b"]);
    expect(Object.entries(headers)).toEqual([["constructor", "a"], ["__proto__", "b"]]);
  });

  it("refuses Authorization and the transport's own headers, and malformed ones", () => {
    expect(() => parseHeaderArgs(["Authorization: Bearer other"])).toThrow(/-H authorization cannot be set: shipctl sends the profile's token/);
    for (const name of ["Host", "Content-Length", "Transfer-Encoding", "Connection"]) expect(() => parseHeaderArgs([`${name}: x`]), name).toThrow(UsageError);
    expect(() => parseHeaderArgs(["no colon"])).toThrow(/is not "Name: value"/);
    expect(() => parseHeaderArgs(["Bad Name: x"])).toThrow(/is not "Name: value"/);
    expect(() => parseHeaderArgs(["X-A: one\r\nAuthorization: x"])).toThrow(/line break/);
  });
});
