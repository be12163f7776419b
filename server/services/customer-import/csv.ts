/**
 * CSV plumbing for the customer import and export (issue 10, spec 002 §5 "CSV import"): the
 * separator guessed from the header line, a quote-aware record counter that reads the upload as it
 * streams to disk, a streaming csv-parse reader, and cell escaping for files a spreadsheet opens.
 */
import { createReadStream } from 'node:fs';
import { parse, type Parser } from 'csv-parse';

/** The separators the import accepts. */
export type Delimiter = ',' | ';';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Counts CSV records in a byte stream without keeping it: newlines outside double quotes end a
 * record; blank lines are not records (csv-parse skips them too). Feed chunks with `push`, read
 * `records` after `end`. Also keeps the first `headBytes` bytes (the header line and a preview).
 */
export class RecordCounter {
  records = 0;
  private inQuotes = false;
  private lineHasContent = false;
  private readonly head: Buffer[] = [];
  private headLength = 0;

  constructor(private readonly headBytes = 256 * 1024) {}

  /** Reads one chunk of the file. */
  push(chunk: Uint8Array): void {
    if (this.headLength < this.headBytes) {
      const part = Buffer.from(chunk.subarray(0, this.headBytes - this.headLength));
      this.head.push(part);
      this.headLength += part.length;
    }
    let inQuotes = this.inQuotes;
    let content = this.lineHasContent;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (b === QUOTE) {
        inQuotes = !inQuotes;
        content = true;
      } else if (!inQuotes && (b === LF || b === CR)) {
        if (content) this.records++;
        content = false;
      } else if (!content && b !== 0x20 && b !== 0x09) content = true;
    }
    this.inQuotes = inQuotes;
    this.lineHasContent = content;
  }

  /** Finishes the count (a last record without a newline counts). */
  end(): void {
    if (this.lineHasContent) this.records++;
    this.lineHasContent = false;
  }

  /** The first bytes of the file. */
  headBuffer(): Buffer {
    return Buffer.concat(this.head);
  }
}

/** Strips a UTF-8 byte-order mark. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * The separator of a file from its header line: the one of `,` and `;` that occurs more often
 * outside double quotes (`,` on a tie, and for a one-column file).
 */
export function detectDelimiter(head: string): Delimiter {
  let commas = 0;
  let semicolons = 0;
  let inQuotes = false;
  for (const ch of stripBom(head)) {
    if (ch === '"') inQuotes = !inQuotes;
    else if (!inQuotes && (ch === '\n' || ch === '\r')) break;
    else if (!inQuotes && ch === ',') commas++;
    else if (!inQuotes && ch === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

/** csv-parse options shared by every read of an upload. */
function parserOptions(delimiter: Delimiter) {
  return { delimiter, bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: 1024 * 1024 } as const;
}

/**
 * Streams the records of a CSV file as arrays of cells (the header is the first record). The file
 * is read in 64 KiB chunks; memory stays at one chunk and one batch of records.
 * @throws csv-parse's CsvError while iterating when the file is not valid CSV
 */
export function readRecords(path: string, delimiter: Delimiter): AsyncIterable<string[]> & Parser {
  const parser = parse(parserOptions(delimiter));
  const input = createReadStream(path, { highWaterMark: 64 * 1024 });
  input.on('error', (e) => parser.destroy(e));
  input.pipe(parser);
  return parser;
}

/**
 * The first `count` records of a file (header included), reading no further than needed.
 * @throws csv-parse's CsvError when they are not valid CSV
 */
export async function firstRecords(path: string, delimiter: Delimiter, count: number): Promise<string[][]> {
  const records: string[][] = [];
  const parser = readRecords(path, delimiter);
  try {
    for await (const record of parser) {
      records.push(record as string[]);
      if (records.length >= count) break;
    }
  } finally {
    parser.destroy();
  }
  return records;
}

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV cell for a file a spreadsheet may open: a text starting with `=`, `+`, `-`, `@`, tab or
 * carriage return gets a leading `'` so it is never run as a formula (OWASP "CSV injection"); then
 * quoted when it holds a quote, comma or line break.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  // Numbers (points) are data, not text a spreadsheet could run: -5 stays -5.
  if (typeof value === 'number') return String(value);
  let text = value;
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line (with CRLF, as spreadsheets write them). */
export function csvLine(cells: readonly (string | number | null | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
