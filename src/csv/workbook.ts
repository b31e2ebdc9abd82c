// A spreadsheet's own file given where a CSV export is expected. Each application is named, with its own way to
// export CSV: the zip signature alone is shared by Excel (.xlsx), OpenDocument (.ods, LibreOffice) and Numbers, so
// the first entry's name and the file's extension tell them apart.
import { extname } from "node:path";
import { UsageError } from "../errors.js";

const ZIP = [0x50, 0x4b, 0x03, 0x04];
/** OLE compound file: Excel 97-2003 (.xls). */
const OLE = [0xd0, 0xcf, 0x11, 0xe0];

/** Whether `buf` begins with these bytes (a file's magic number or byte-order mark). */
export function startsWith(buf: Buffer, bytes: number[]): boolean {
  return buf.length >= bytes.length && bytes.every((b, i) => buf[i] === b);
}

type Workbook = "excel" | "opendocument" | "numbers" | "zip";

function workbookKind(head: Buffer, file: string): Workbook | undefined {
  const zip = startsWith(head, ZIP);
  if (!zip && !startsWith(head, OLE)) return undefined;
  const ext = extname(file).toLowerCase();
  // A zip's first local header is 30 bytes, then the first entry's name; OpenDocument stores "mimetype" first.
  const start = head.subarray(30, 160).toString("latin1");
  if (start.startsWith("mimetype") && start.includes("opendocument")) return "opendocument";
  if ([".ods", ".fods", ".ots"].includes(ext)) return "opendocument";
  if (/^(?:Index\/|Metadata\/)/.test(start) || ext === ".numbers") return "numbers";
  if (!zip || /^(?:\[Content_Types\]\.xml|xl\/|_rels\/|docProps\/)/.test(start) || /^\.xl[st][xmb]?$/.test(ext)) return "excel";
  return "zip";
}

const REFUSALS: Record<Workbook, { what: string; hint: string }> = {
  excel: { what: "an Excel workbook", hint: 'In Excel, use File > Save As > "CSV UTF-8 (Comma delimited)" and pass that file.' },
  opendocument: {
    what: "a spreadsheet workbook (OpenDocument, as LibreOffice saves it)",
    hint:
      'In LibreOffice Calc, use File > Save As, choose the type "Text CSV (.csv)" and tick "Edit filter settings"; ' +
      'pick Character set "Unicode (UTF-8)" and Field delimiter "," and pass that file.',
  },
  numbers: { what: "a Numbers spreadsheet", hint: 'In Numbers, use File > Export To > CSV with Text Encoding "Unicode (UTF-8)" and pass that file.' },
  zip: { what: "a zip archive (a spreadsheet workbook?)", hint: "Open it in the spreadsheet that made it and export it as CSV, UTF-8." },
};

/** Refuses a workbook file, naming its application and how to export CSV from it. */
export function refuseWorkbook(head: Buffer, file: string): void {
  const kind = workbookKind(head, file);
  if (kind === undefined) return;
  const { what, hint } = REFUSALS[kind];
  throw new UsageError(`${file} is ${what}, not a CSV file`, { hint });
}

/** A Numbers document saved as a package is a folder: said so, rather than "is a folder". */
export function numbersPackageHint(path: string): string | undefined {
  return extname(path).toLowerCase() === ".numbers" ? REFUSALS.numbers.hint : undefined;
}
