// --preview: a contact sheet of the 12 photos in upload order, each labelled with group and side, so an operator sees
// at a glance that "left" really shows the left side before the evidence is filed. HTML is self-contained (downscaled
// thumbnails embedded as data: URIs, no network, nothing to keep beside it); PNG is one image made with sharp.
// Thumbnails apply EXIF orientation, so the sheet shows each photo the way the service's viewers will.
import { writeFile } from "node:fs/promises";
import { REPORT } from "../contract/index.js";
import { loadSharp } from "./sharp-module.js";
import { formatBytes } from "./wording.js";
import type { Photo } from "./report-types.js";
import { previewFormat } from "./upload-plan.js";

export interface PreviewSheet {
  /** e.g. "Shipment 1234 · set 1". */
  title: string;
  /** Where the photos came from. */
  folder: string;
  /** The 12 photos, in upload order. */
  photos: readonly Photo[];
}

const THUMB_EDGE = 360;

export async function writePreview(file: string, sheets: readonly PreviewSheet[]): Promise<void> {
  const format = previewFormat(file);
  if (format === "png") {
    if (sheets.length !== 1) throw new Error("a PNG preview holds one report; use an .html preview for a batch");
    await writeFile(file, await pngSheet(sheets[0]!));
  } else {
    await writeFile(file, await htmlSheet(sheets), "utf8");
  }
}

async function thumbnail(photo: Photo, edge: number): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(photo.path, { failOn: "error" })
    .rotate()
    .resize({ width: edge, height: edge, fit: "inside", withoutEnlargement: true })
    .flatten({ background: "#ffffff" })
    .jpeg({ quality: 72 })
    .toBuffer();
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export async function htmlSheet(sheets: readonly PreviewSheet[]): Promise<string> {
  const sections: string[] = [];
  for (const sheet of sheets) {
    const rows: string[] = [];
    for (const group of REPORT.groups) {
      const cells: string[] = [];
      for (const photo of sheet.photos.filter((p) => p.group === group)) {
        const n = sheet.photos.indexOf(photo) + 1;
        const src = `data:image/jpeg;base64,${(await thumbnail(photo, THUMB_EDGE)).toString("base64")}`;
        const fitted = photo.fitted ? ` · fitted from ${formatBytes(photo.fitted.fromBytes)}` : "";
        cells.push(
          `<figure><img src="${src}" alt="${escapeHtml(`${group} ${photo.side}`)}">` +
            `<figcaption><b>${n}. ${escapeHtml(group)} · ${escapeHtml(photo.side)}</b>` +
            `<span>${escapeHtml(photo.file)} · ${formatBytes(photo.bytes)}${fitted}</span></figcaption></figure>`,
        );
      }
      rows.push(`<h3>${escapeHtml(group)}</h3><div class="row">${cells.join("")}</div>`);
    }
    sections.push(`<section><h2>${escapeHtml(sheet.title)}</h2><p class="folder">${escapeHtml(sheet.folder)}</p>${rows.join("")}</section>`);
  }
  const title = sheets.length === 1 ? sheets[0]!.title : `${sheets.length} condition reports`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<title>${escapeHtml(`Preview: ${title}`)}</title>
<style>
body{font:14px system-ui,sans-serif;margin:24px;color:#222;background:#fafafa}
section{margin-bottom:40px}h2{margin:0 0 4px}h3{margin:16px 0 6px;text-transform:uppercase;font-size:13px;color:#555}
.folder{margin:0;color:#666;font-family:monospace}
.row{display:grid;grid-template-columns:repeat(6,1fr);gap:12px}
figure{margin:0;background:#fff;border:1px solid #ddd;padding:6px}
img{width:100%;height:200px;object-fit:contain;background:#eee;display:block}
figcaption{margin-top:6px}figcaption b{display:block;font-size:15px}figcaption span{color:#666;font-size:12px;word-break:break-all}
</style></head><body>
<h1>${escapeHtml(`Preview: ${title}`)}</h1>
<p>Photos in upload order. Check that each one shows the side its label names before uploading.</p>
${sections.join("\n")}
</body></html>
`;
}

const CELL = 280;
const LABEL = 48;
const GAP = 12;
const TITLE = 44;

export async function pngSheet(sheet: PreviewSheet): Promise<Buffer> {
  const sharp = await loadSharp();
  const cols = REPORT.photosPerGroup;
  const width = GAP + cols * (CELL + GAP);
  const height = TITLE + REPORT.groups.length * (CELL + LABEL + GAP) + GAP;
  const layers: { input: Buffer; left: number; top: number }[] = [
    { input: svgText(width, TITLE, [{ x: GAP, y: 30, size: 22, bold: true, text: sheet.title }]), left: 0, top: 0 },
  ];
  for (const [i, photo] of sheet.photos.entries()) {
    const left = GAP + (i % cols) * (CELL + GAP);
    const top = TITLE + Math.floor(i / cols) * (CELL + LABEL + GAP);
    const thumb = await sharp(await thumbnail(photo, CELL))
      .resize({ width: CELL, height: CELL, fit: "contain", background: "#eeeeee" })
      .png()
      .toBuffer();
    layers.push({ input: thumb, left, top });
    layers.push({
      input: svgText(CELL, LABEL, [
        { x: 0, y: 20, size: 17, bold: true, text: `${i + 1}. ${photo.group} · ${photo.side}` },
        { x: 0, y: 40, size: 12, text: `${photo.file} · ${formatBytes(photo.bytes)}` },
      ]),
      left,
      top: top + CELL,
    });
  }
  return sharp({ create: { width, height, channels: 3, background: "#fafafa" } })
    .composite(layers)
    .png()
    .toBuffer();
}

function svgText(width: number, height: number, lines: { x: number; y: number; size: number; bold?: boolean; text: string }[]): Buffer {
  const body = lines
    .map(
      (l) =>
        `<text x="${l.x}" y="${l.y}" font-family="sans-serif" font-size="${l.size}"${l.bold ? ' font-weight="bold"' : ""} fill="#222">${escapeHtml(l.text)}</text>`,
    )
    .join("");
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${body}</svg>`);
}
