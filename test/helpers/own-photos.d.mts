// The types of own-photos.mjs (plain JavaScript, so the documentation's setup comments run it too).
export function ownPhoto(bytes: Buffer, note: string): Buffer | undefined;
export function ownCopy(from: string, to: string, note?: string): void;
