// sharp, the image library behind --fit, the contact sheet and the check of a JPEG cut short. It is a native module
// with a build per system: node_modules copied from another system, a missing runtime or a platform without a build
// (ARM64 Windows) cannot load it. Loaded only by the report workflows that need photos, and before anything is sent,
// so a failure is a usage error (exit 2) with sharp's own fix, never "a bug in shipctl" halfway through a batch.
import { UsageError, messageOf } from "../errors.js";

type SharpFactory = typeof import("sharp");

let sharpModule: Promise<SharpFactory> | undefined;

export function loadSharp(): Promise<SharpFactory> {
  sharpModule ??= import("sharp").then(
    (m) => {
      const factory = (m as unknown as { default?: SharpFactory }).default ?? (m as unknown as SharpFactory);
      // A CLI processes each photo once: libvips' operation cache would only hold memory.
      factory.cache(false);
      return factory;
    },
    (e: unknown) => {
      const first = (messageOf(e)).split("\n")[0];
      throw new UsageError(`the image library sharp cannot be loaded on this system (${process.platform}-${process.arch}): ${first}. Nothing was sent.`, {
        hint:
          "Install its build for this system in shipctl's folder: `npm install --include=optional sharp` " +
          "(node_modules copied from another system: `npm install --os=win32 --cpu=x64 sharp`, with this system's --os and --cpu); " +
          "or reinstall shipctl with `npm i -g shipctl`.",
        cause: e,
      });
    },
  );
  return sharpModule;
}
