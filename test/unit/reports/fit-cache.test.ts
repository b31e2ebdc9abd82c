// Fitted copies kept by the content of their original (fit-cache.ts): the same photo under the same rules is fitted
// once; another rule or other bytes is fitted again; old entries go; a cache that cannot be made costs nothing.
import { mkdirSync, readFileSync, utimesSync, writeFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { FitCache } from "../../../src/reports/fit-cache.js";
import type { FitResult } from "../../../src/reports/fit.js";
import type { Photo } from "../../../src/reports/report-types.js";
import { tempDir } from "../../helpers/cli.js";

function original(bytes: string): Photo {
  const dir = tempDir("shipctl-fit-cache-src-");
  const path = join(dir, "front.jpg");
  writeFileSync(path, bytes);
  return { group: "box", side: "front", path, file: "box/front.jpg", type: "jpeg", bytes: bytes.length, width: 4000, height: 3000 };
}

/** A fake fit: writes a copy named as fit.ts names them, and counts its calls. */
function maker(photo: Photo, workDir: string) {
  const calls = { n: 0 };
  const make = async (): Promise<FitResult> => {
    calls.n++;
    const path = join(workDir, "box-front.jpg");
    writeFileSync(path, `copy of ${readFileSync(photo.path, "utf8")}`);
    return { ok: true, photo: { ...photo, path, bytes: 900_000, width: 2000, height: 1500, fitted: { fromBytes: photo.bytes, fromType: "jpeg", fromWidth: 4000, fromHeight: 3000, quality: 85 } } };
  };
  return { calls, make };
}

it("fits a photo once: the next run copies the kept copy into its own folder, named for the side it serves", async () => {
  const cache = (await FitCache.open(tempDir("shipctl-fit-cache-")))!;
  const photo = original("pixels");
  const first = maker(photo, tempDir("shipctl-work-"));
  const made = await cache.fit(photo, tempDir("shipctl-work-"), {}, first.make);
  expect(first.calls.n).toBe(1);
  expect(made).toMatchObject({ ok: true });

  const work = tempDir("shipctl-work-");
  const again = maker(photo, work);
  const back = { ...photo, group: "art" as const, side: "left" as const };
  const kept = await cache.fit(back, work, {}, again.make);
  expect(again.calls.n).toBe(0);
  expect(kept).toMatchObject({ ok: true, cached: true, photo: { group: "art", side: "left", bytes: 900_000, width: 2000, fitted: { quality: 85 } } });
  const path = (kept as Extract<FitResult, { ok: true }>).photo.path;
  expect(path).toBe(join(work, "art-left.jpg"));
  expect(readFileSync(path, "utf8")).toBe("copy of pixels");
});

it("fits again under another rule, or for other bytes", async () => {
  const cache = (await FitCache.open(tempDir("shipctl-fit-cache-")))!;
  const photo = original("pixels");
  const work = tempDir("shipctl-work-");
  const m = maker(photo, work);
  await cache.fit(photo, work, {}, m.make);
  await cache.fit(photo, work, { stripLocation: true }, m.make);
  expect(m.calls.n).toBe(2);
  const other = original("other pixels");
  const o = maker(other, work);
  await cache.fit(other, work, {}, o.make);
  expect(o.calls.n).toBe(1);
});

it("removes entries not used for a week when opened", async () => {
  const dir = tempDir("shipctl-fit-cache-");
  const cache = (await FitCache.open(dir))!;
  const photo = original("pixels");
  const work = tempDir("shipctl-work-");
  await cache.fit(photo, work, {}, maker(photo, work).make);
  const [entry] = readdirSync(dir);
  const old = new Date(Date.now() - 8 * 86_400_000);
  utimesSync(join(dir, entry!), old, old);
  const reopened = (await FitCache.open(dir))!;
  expect(readdirSync(dir)).toEqual([]);
  const m = maker(photo, work);
  await reopened.fit(photo, work, {}, m.make);
  expect(m.calls.n).toBe(1);
});

it("is no cache where its folder cannot be made, and an unreadable original is simply fitted", async () => {
  const file = join(tempDir("shipctl-fit-cache-"), "a-file");
  writeFileSync(file, "");
  expect(await FitCache.open(join(file, "cache"))).toBeUndefined();
  const cache = (await FitCache.open(tempDir("shipctl-fit-cache-")))!;
  const gone: Photo = { ...original("x"), path: join(tempDir("shipctl-gone-"), "missing.jpg") };
  const work = tempDir("shipctl-work-");
  mkdirSync(work, { recursive: true });
  let calls = 0;
  await cache.fit(gone, work, {}, async () => {
    calls++;
    return { ok: false, problem: { file: gone.file, problem: "cannot be read", fix: "copy it again" } };
  });
  expect(calls).toBe(1);
});
