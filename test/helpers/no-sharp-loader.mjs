// The module-resolution hook no-sharp.mjs registers: resolving "sharp" fails as sharp's own loader fails.
export async function resolve(specifier, context, next) {
  if (specifier === "sharp" || specifier.startsWith("sharp/")) {
    throw new Error(`Could not load the "sharp" module using the ${process.platform}-${process.arch} runtime (no-sharp test hook)`);
  }
  return next(specifier, context);
}
