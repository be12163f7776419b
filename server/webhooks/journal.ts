/**
 * The intake journal (issue 14 "Webhooks off the request path": store the delivery durably, answer
 * 200, with the answer's p99 ≤ 20 ms while processing runs flat out).
 *
 * On SQLite one thread at a time holds the file's write lock, and the processing thread holds it
 * for every order it awards. When the serving thread also wrote each delivery into SQLite, an
 * answer waited for that lock (or retried for it) behind a thread that runs at the lowest priority:
 * under load the answers' tail grew to hundreds of milliseconds. With the journal the serving
 * thread never writes SQLite for a webhook: it appends the delivery as one line to a file beside
 * the database (one `write`, which a `kill -9` of the process cannot undo), answers, and hands the
 * delivery to the processing thread, which inserts deliveries in batches into `webhook_deliveries`
 * (one transaction for all that arrived meanwhile) and confirms them. A segment file whose
 * deliveries are all confirmed is deleted. At start, before anything else is served, deliveries
 * still in segment files are inserted (idempotently: a delivery already stored is skipped) and the
 * files deleted, so a delivery answered 200 is never lost by a crash of the process.
 *
 * As with SQLite's `synchronous = NORMAL`, which the app uses, the file is not fsynced per write:
 * what the operating system has accepted survives the process, not a power cut.
 *
 * Files: `<database file>-intake-<n>.jsonl`, one JSON object ({@link JournalRecord}) per line.
 */
import { closeSync, openSync, readdirSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** One delivery as the journal keeps it: what `webhook_deliveries` and its body row need. */
export interface JournalRecord {
  /** The delivery id (UUID), chosen when the delivery arrived. */
  id: string;
  /** Arrival order (sortable text, server/webhooks/queue.ts nextSeq). */
  seq: string;
  /** ISO 8601 arrival time. */
  receivedAt: string;
  shopId: string;
  topic: string;
  webhookId: string | null;
  orderKey: string;
  /** The raw body as text. */
  body: string;
}

/** A segment grows to about this many bytes before the next one starts (8 MiB). */
export const SEGMENT_BYTES = 8 * 1024 * 1024;

const SEGMENT = /^(.*)-intake-(\d+)\.jsonl$/;

/** The segment files of the journal of `databasePath`, oldest first. */
export function journalSegments(databasePath: string): string[] {
  const dir = dirname(databasePath);
  const prefix = basename(databasePath);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .map((name) => ({ name, m: SEGMENT.exec(name) }))
    .filter((x) => x.m && x.m[1] === prefix)
    .sort((a, b) => Number(a.m![2]) - Number(b.m![2]))
    .map((x) => join(dir, x.name));
}

/**
 * The records left in the journal of `databasePath`, oldest first. A last line cut short (the
 * process died inside a write, or a power cut) is skipped: its delivery was never answered.
 */
export function readJournal(databasePath: string): JournalRecord[] {
  const records: JournalRecord[] = [];
  for (const file of journalSegments(databasePath)) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line === '') continue;
      try {
        records.push(JSON.parse(line) as JournalRecord);
      } catch {
        // a torn last line: never answered
      }
    }
  }
  return records;
}

/** Deletes every segment file of the journal of `databasePath` (after its records were stored). */
export function clearJournal(databasePath: string): void {
  for (const file of journalSegments(databasePath)) unlinkSync(file);
}

/**
 * The serving thread's journal: `append` writes a record and answers its segment; `settle` is
 * called once the processing thread has stored that record. A segment that is no longer written
 * and has nothing unsettled is deleted.
 */
export class IntakeJournal {
  private segment = 0;
  private fd: number | null = null;
  private bytes = 0;
  /** Unsettled records per segment number. */
  private readonly open = new Map<number, number>();

  /** Starts after the segments already present (normally none: they are replayed and cleared at start). */
  constructor(
    private readonly databasePath: string,
    private readonly segmentBytes = SEGMENT_BYTES,
  ) {
    const existing = journalSegments(databasePath).map((f) => Number(SEGMENT.exec(basename(f))![2]));
    this.segment = existing.length > 0 ? Math.max(...existing) : 0;
  }

  private file(segment: number): string {
    return `${this.databasePath}-intake-${segment}.jsonl`;
  }

  /** Appends `record` (one synchronous write). Answers the segment to settle it in. Throws what the file system throws. */
  append(record: JournalRecord): number {
    if (this.fd === null || this.bytes >= this.segmentBytes) this.rotate();
    const line = `${JSON.stringify(record)}\n`;
    this.bytes += writeSync(this.fd!, line);
    this.open.set(this.segment, (this.open.get(this.segment) ?? 0) + 1);
    return this.segment;
  }

  /** The record appended to `segment` is stored in the database. */
  settle(segment: number): void {
    const left = (this.open.get(segment) ?? 1) - 1;
    if (left > 0) return void this.open.set(segment, left);
    this.open.delete(segment);
    if (segment !== this.segment) this.remove(segment);
  }

  /** Records appended and not settled yet. */
  get unsettled(): number {
    let n = 0;
    for (const count of this.open.values()) n += count;
    return n;
  }

  /** Closes the current segment; deletes it when everything in it was settled. */
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    if (!this.open.has(this.segment)) this.remove(this.segment);
  }

  private rotate(): void {
    const previous = this.segment;
    if (this.fd !== null) {
      closeSync(this.fd);
      if (!this.open.has(previous)) this.remove(previous);
    }
    this.segment = previous + 1;
    this.fd = openSync(this.file(this.segment), 'a');
    this.bytes = 0;
  }

  private remove(segment: number): void {
    try {
      unlinkSync(this.file(segment));
    } catch {
      // never created (no record was written) or already gone
    }
  }
}
