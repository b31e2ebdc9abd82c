// What --preview writes, judged by the file's name: an HTML contact sheet, or one PNG image.
import { extname } from "node:path";

export type PreviewFormat = "html" | "png";

export function previewFormat(file: string): PreviewFormat | undefined {
  const ext = extname(file).toLowerCase();
  if (ext === ".html" || ext === ".htm") return "html";
  if (ext === ".png") return "png";
  return undefined;
}
