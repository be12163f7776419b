/**
 * The load generator of bench:ingest and of bench:storefront's paced measures, run as its own
 * process so it never shares an event loop or a core's time slice accounting with the server it
 * measures. Sends one prepared request after another from a JSON-lines file (`{ method?, path,
 * headers, body? }` per line, bodies signed by the caller; method POST when absent) over
 * `connections` keep-alive sockets and prints one JSON line (LoadResult): when it started and
 * finished (epoch ms), how many requests settled, how many answers were not 2xx, errors, timeouts,
 * latency percentiles (ms) and its own CPU time.
 *
 * Usage: node --import tsx scripts/bench/loadgen.ts '<json options>' with
 * { url, file, connections, amount, overallRate? } (overallRate: requests per second in total).
 *
 * Without a rate it is a closed loop: each connection sends its next request when the last is
 * answered, latency from the moment it was written. With a rate it is an open loop: request i is
 * due at t0 + i/rate, a timer loop (about one tick a millisecond) writes every request due by
 * then, and each latency counts from the moment the request was due, so a slow answer or a late
 * tick is never hidden (no coordinated omission).
 *
 * It speaks HTTP/1.1 on raw node:net sockets. node:http's client (an Agent and a request object
 * per call, with its header validation, parser and streams) cost more than the servers measured:
 * against a bare server answering a constant JSON in ~30 µs, the paced mode at half that server's
 * rate reported p99 135–220 ms, the generator's own queue. Here every prepared request is
 * serialized once into a Buffer (request line, Host, the caller's headers, Content-Length,
 * `Connection: keep-alive`, body); a due request goes at once to the connection with the fewest
 * requests outstanding, pipelined behind them if need be (an HTTP/1.1 server answers a socket's
 * requests in order; node:http handles pipelined requests at once, only their answers wait their
 * turn), so the generator never holds a request back because every connection is
 * busy; each tick's requests for one socket go out in one write. Each connection keeps a FIFO of
 * its outstanding requests' start times, and a small incremental parser (status line, headers up
 * to the blank line, then a Content-Length or chunked body, or a body up to the close) completes
 * them as the bytes arrive, however the responses are split or batched across reads. A socket
 * that closes or fails counts its outstanding requests as errors and is reopened for the next
 * request. When nothing has settled for ANSWER_TIMEOUT_MS (30 s; in the open loop, counted once
 * everything is sent) the run ends and the requests not answered count as timeouts.
 *
 * The open loop's resolution is Node's 1 ms timer: a request waits up to about a millisecond
 * (more on a loaded machine) for the tick that sends it, and that wait is in its latency. Against
 * a server that answers in microseconds the generator shows p50 ≈ 1 ms and p99 a few ms up to
 * ~40,000 requests/s, using well under one core (about 0.3–0.4 of one at 20,000–40,000/s).
 *
 * autocannon was used first and dropped: its closed loop ends on its one-second tick (a 0.3 s run
 * measured as 1 s, so the bare baseline's rate came out far too low), its rate limit sends each
 * second's quota at once, and its coordinated-omission correction assumes a whole-millisecond
 * interval.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';

/** One prepared request (a line of the requests file). `method` defaults to POST. */
export interface PreparedRequest {
  method?: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** What the generator prints, as one JSON line. */
export interface LoadResult {
  /** Epoch ms when the first request was sent (after the connections opened). */
  startedAt: number;
  /** Epoch ms when the last request settled (or the answer timeout ran out). */
  finishedAt: number;
  /** Requests settled: answered (any status) plus failed on a socket error or close. */
  requests: number;
  /** Answers whose status was not 2xx. */
  non2xx: number;
  /** Requests lost with their socket (error, close, or a response the parser could not read). */
  errors: number;
  /**
   * Requests still unanswered when the answer timeout ran out (in a closed loop including those
   * never sent because every connection was waiting), so requests + timeouts = amount.
   */
  timeouts: number;
  /** Over the answered requests, rounded to whole ms. */
  latency: { p50: number; p99: number; max: number };
  /** CPU seconds the generator itself used (user + system). */
  cpuSeconds: number;
}

/** The command-line options (one JSON argument). */
interface Options {
  url: string;
  file: string;
  connections: number;
  amount: number;
  overallRate?: number;
}

/** When nothing has settled for this long (open loop: once all are sent) the run ends; the unanswered are timeouts. */
const ANSWER_TIMEOUT_MS = 30_000;
/** A response head larger than this is treated as garbage (the socket is dropped). */
const MAX_HEAD_BYTES = 64 * 1024;

/** A prepared request serialized once: its bytes, and whether it is a HEAD (no response body). */
interface WireRequest {
  bytes: Buffer;
  head: boolean;
}

const CRLF = Buffer.from('\r\n');
const CRLFCRLF = Buffer.from('\r\n\r\n');
/** Request headers the generator writes itself (a caller's copy is dropped). */
const OWN_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection']);

/** Serializes one prepared request: request line, Host, headers, Content-Length, keep-alive, body. */
function serialize(item: PreparedRequest, host: string): WireRequest {
  const method = (item.method ?? 'POST').toUpperCase();
  const safe = (text: string, what: string): string => {
    if (/[\r\n]/.test(text)) throw new Error(`loadgen: line break in ${what} ${JSON.stringify(text)}`);
    return text;
  };
  let head = `${safe(method, 'method')} ${safe(item.path, 'path')} HTTP/1.1\r\n`;
  const names = Object.keys(item.headers).map((name) => name.toLowerCase());
  if (!names.includes('host')) head += `Host: ${host}\r\n`;
  for (const [name, value] of Object.entries(item.headers)) {
    if (OWN_HEADERS.has(name.toLowerCase())) continue;
    head += `${safe(name, 'header name')}: ${safe(String(value), 'header value')}\r\n`;
  }
  const body = item.body === undefined ? undefined : Buffer.from(item.body, 'utf8');
  // A POST, PUT or PATCH without a body says so, as node:http's client did (Content-Length: 0).
  if (body !== undefined || method === 'POST' || method === 'PUT' || method === 'PATCH') head += `Content-Length: ${body?.length ?? 0}\r\n`;
  head += 'Connection: keep-alive\r\n\r\n';
  const bytes = body === undefined || body.length === 0 ? Buffer.from(head, 'latin1') : Buffer.concat([Buffer.from(head, 'latin1'), body]);
  return { bytes, head: method === 'HEAD' };
}

/** The start times (ms, performance.now()) of one connection's outstanding requests, oldest first. */
class Outstanding {
  private times = new Float64Array(64);
  private heads = new Uint8Array(64);
  private first = 0;
  length = 0;

  push(time: number, head: boolean): void {
    if (this.length === this.times.length) this.grow();
    const at = (this.first + this.length) & (this.times.length - 1);
    this.times[at] = time;
    this.heads[at] = head ? 1 : 0;
    this.length++;
  }

  /** Whether the oldest outstanding request is a HEAD (its answer has no body). */
  oldestIsHead(): boolean {
    return this.length > 0 && this.heads[this.first] === 1;
  }

  /** Removes the oldest and answers its start time. */
  shift(): number {
    const time = this.times[this.first]!;
    this.first = (this.first + 1) & (this.times.length - 1);
    this.length--;
    return time;
  }

  clear(): void {
    this.first = 0;
    this.length = 0;
  }

  private grow(): void {
    const times = new Float64Array(this.times.length * 2);
    const heads = new Uint8Array(this.times.length * 2);
    for (let i = 0; i < this.length; i++) {
      const from = (this.first + i) & (this.times.length - 1);
      times[i] = this.times[from]!;
      heads[i] = this.heads[from]!;
    }
    this.times = times;
    this.heads = heads;
    this.first = 0;
  }
}

/** What a connection reports to the run. */
interface RunHooks {
  /** An answer to a request that started at `start` (ms) arrived complete at `now`. */
  answered(connection: Connection, start: number, now: number, status: number): void;
  /** `count` outstanding requests were lost with the connection's socket. */
  lost(connection: Connection, count: number): void;
  /** Whether the run is over (no reconnects, no accounting). */
  over(): boolean;
}

// Response parser phases.
const HEAD = 0;
const BODY = 1;
const CHUNK_SIZE = 2;
const CHUNK_DATA = 3;
const CHUNK_END = 4;
const TRAILER = 5;
const UNTIL_CLOSE = 6;

/**
 * One keep-alive connection: writes requests (pipelined), keeps their start times in order and
 * parses the responses incrementally. Opens its socket lazily and again after losing it.
 */
class Connection {
  private socket: Socket | null = null;
  readonly outstanding = new Outstanding();
  private batch: Buffer[] = [];
  // Parser state: unparsed bytes of a head or chunk-size/trailer line, the phase, the current
  // answer's status, bytes left in the current body or chunk, and whether the server will close.
  private carry: Buffer | null = null;
  private phase = HEAD;
  private status = 0;
  private remaining = 0;
  private closing = false;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly hooks: RunHooks,
  ) {}

  /** Opens the socket now; resolves once it is connected or has failed. */
  open(): Promise<void> {
    return new Promise((resolve) => {
      const socket = this.ensureSocket();
      socket.once('connect', () => resolve());
      socket.once('close', () => resolve());
    });
  }

  /** Queues one request (started at `start`) for the next flush. */
  queue(request: WireRequest, start: number): void {
    this.ensureSocket();
    this.outstanding.push(start, request.head);
    this.batch.push(request.bytes);
  }

  /** Writes the queued requests in one write. */
  flush(): void {
    if (this.batch.length === 0) return;
    const bytes = this.batch.length === 1 ? this.batch[0]! : Buffer.concat(this.batch);
    this.batch = [];
    this.socket?.write(bytes);
  }

  /** Closes the socket without counting anything (the run is over). */
  destroy(): void {
    const socket = this.socket;
    this.socket = null;
    socket?.destroy();
  }

  private ensureSocket(): Socket {
    if (this.socket) return this.socket;
    const socket = connect({ host: this.host, port: this.port });
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      if (this.socket === socket) this.feed(chunk, performance.now());
    });
    socket.on('end', () => {
      // A body without Content-Length or chunking ends with the connection.
      if (this.socket === socket && this.phase === UNTIL_CLOSE) this.complete(performance.now());
    });
    socket.on('error', () => {}); // 'close' follows and does the accounting
    socket.on('close', () => {
      if (this.socket === socket) this.drop();
    });
    this.socket = socket;
    return socket;
  }

  /** Forgets the socket; its outstanding requests are lost. The next request opens a new one. */
  private drop(): void {
    const socket = this.socket;
    this.socket = null;
    socket?.destroy();
    const lost = this.outstanding.length;
    this.outstanding.clear();
    this.batch = [];
    this.carry = null;
    this.phase = HEAD;
    this.closing = false;
    if (lost > 0 && !this.hooks.over()) this.hooks.lost(this, lost);
  }

  /** Parses what arrived: any number of responses, or parts of one. */
  private feed(chunk: Buffer, now: number): void {
    const buf = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    this.carry = null;
    let at = 0;
    while (at < buf.length) {
      switch (this.phase) {
        case HEAD: {
          const end = buf.indexOf(CRLFCRLF, at);
          if (end < 0) {
            if (buf.length - at > MAX_HEAD_BYTES) return this.drop();
            this.carry = buf.subarray(at);
            return;
          }
          if (!this.head(buf.toString('latin1', at, end))) return this.drop();
          at = end + 4;
          if (this.phase === HEAD && this.status >= 200) {
            if (!this.complete(now)) return;
          }
          break;
        }
        case BODY:
        case CHUNK_DATA:
        case CHUNK_END: {
          const n = Math.min(this.remaining, buf.length - at);
          at += n;
          this.remaining -= n;
          if (this.remaining > 0) break;
          if (this.phase === BODY) {
            if (!this.complete(now)) return;
          } else if (this.phase === CHUNK_DATA) {
            this.phase = CHUNK_END; // the CRLF after the chunk's data
            this.remaining = 2;
          } else this.phase = CHUNK_SIZE;
          break;
        }
        case CHUNK_SIZE:
        case TRAILER: {
          const eol = buf.indexOf(CRLF, at);
          if (eol < 0) {
            if (buf.length - at > MAX_HEAD_BYTES) return this.drop();
            this.carry = buf.subarray(at);
            return;
          }
          if (this.phase === CHUNK_SIZE) {
            const size = chunkSize(buf, at, eol);
            if (size < 0) return this.drop();
            if (size === 0) this.phase = TRAILER;
            else {
              this.phase = CHUNK_DATA;
              this.remaining = size;
            }
          } else if (eol === at) {
            // The blank line after the last chunk (and any trailer fields): the answer is complete.
            at = eol + 2;
            if (!this.complete(now)) return;
            break;
          }
          at = eol + 2;
          break;
        }
        case UNTIL_CLOSE:
          at = buf.length;
          break;
      }
    }
  }

  /** Reads a response head; sets status and the body's phase. False when it is not HTTP/1.x. */
  private head(text: string): boolean {
    if (!text.startsWith('HTTP/1.') || this.outstanding.length === 0) return false;
    const status = Number.parseInt(text.slice(9, 12), 10);
    if (!(status >= 100 && status <= 599) || status === 101) return false;
    this.status = status;
    let length = -1;
    let chunked = false;
    let otherCoding = false;
    let lineStart = text.indexOf('\r\n');
    while (lineStart >= 0) {
      const lineEnd = text.indexOf('\r\n', lineStart + 2);
      const line = text.slice(lineStart + 2, lineEnd < 0 ? text.length : lineEnd);
      lineStart = lineEnd;
      const colon = line.indexOf(':');
      if (colon < 0) continue;
      const name = line.slice(0, colon).trim();
      // Only three fields matter; compare by length first so most names are never lowercased.
      if (name.length !== 14 && name.length !== 17 && name.length !== 10) continue;
      const lower = name.toLowerCase();
      if (lower === 'content-length') length = Number.parseInt(line.slice(colon + 1).trim(), 10);
      else if (lower === 'transfer-encoding') {
        const codings = line.slice(colon + 1).trim().toLowerCase();
        chunked = codings.endsWith('chunked');
        otherCoding = !chunked;
      } else if (lower === 'connection') this.closing = line.slice(colon + 1).toLowerCase().includes('close');
    }
    if (status < 200) {
      // 1xx: informational, the real answer follows.
      this.phase = HEAD;
      this.closing = false;
    } else if (this.outstanding.oldestIsHead() || status === 204 || status === 304) this.phase = HEAD;
    else if (chunked) this.phase = CHUNK_SIZE;
    else if (otherCoding) this.phase = UNTIL_CLOSE;
    else if (length >= 0) {
      this.phase = length === 0 ? HEAD : BODY;
      this.remaining = length;
    } else if (Number.isNaN(length)) return false;
    else this.phase = UNTIL_CLOSE;
    return true;
  }

  /**
   * One answer is complete. When the server said it closes the connection, the socket is dropped
   * first (requests pipelined behind this one are lost), so a closed loop's next request goes to a
   * new socket. False when parsing must stop: the socket was dropped, or the run is over.
   */
  private complete(now: number): boolean {
    const socket = this.socket;
    const start = this.outstanding.shift();
    const status = this.status;
    const closing = this.closing || this.phase === UNTIL_CLOSE;
    this.phase = HEAD;
    this.remaining = 0;
    if (closing) this.drop();
    this.hooks.answered(this, start, now, status);
    return !closing && this.socket === socket;
  }
}

/** A chunk-size line's hex size (extensions after `;` ignored); -1 when it is not one. */
function chunkSize(buf: Buffer, from: number, to: number): number {
  let size = 0;
  let digits = 0;
  for (let i = from; i < to; i++) {
    const c = buf[i]!;
    let v: number;
    if (c >= 0x30 && c <= 0x39) v = c - 0x30;
    else if (c >= 0x61 && c <= 0x66) v = c - 0x57;
    else if (c >= 0x41 && c <= 0x46) v = c - 0x37;
    else if (c === 0x3b || c === 0x20 || c === 0x09) break;
    else return -1;
    size = size * 16 + v;
    digits++;
  }
  return digits === 0 || size > Number.MAX_SAFE_INTEGER ? -1 : size;
}

const percentile = (sorted: Float64Array, p: number): number => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))]!);

/**
 * Runs the load: opens the connections, then sends `amount` requests paced at `overallRate` per
 * second (open loop) or, without a rate, each connection's next request as its last is answered
 * (closed loop). Prints the LoadResult line when every request has settled or timed out.
 */
async function run(options: Options): Promise<void> {
  const target = new URL(options.url);
  if (target.protocol !== 'http:') throw new Error(`loadgen: only http:// URLs (${options.url})`);
  const port = Number(target.port || 80);
  const hostname = target.hostname.replace(/^\[(.*)\]$/, '$1');
  const wire = readFileSync(options.file, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => serialize(JSON.parse(line) as PreparedRequest, `${target.hostname}:${port}`));
  if (wire.length === 0) throw new Error(`loadgen: no requests in ${options.file}`);
  const amount = Math.max(0, Math.floor(options.amount) || 0);
  const rate = options.overallRate && options.overallRate > 0 ? options.overallRate : undefined;

  const latencies = new Float64Array(amount);
  let answered = 0;
  let non2xx = 0;
  let errors = 0;
  let sent = 0;
  let lastProgress = performance.now();
  let finished = false;
  let startedAt = Date.now();
  let tickTimer: NodeJS.Timeout | undefined;

  const finish = (): void => {
    if (finished) return;
    finished = true;
    const finishedAt = Date.now();
    clearTimeout(tickTimer);
    clearInterval(watchdog);
    const timeouts = amount - answered - errors;
    for (const connection of connections) connection.destroy();
    const sorted = latencies.subarray(0, answered).sort();
    const usage = process.cpuUsage();
    const out: LoadResult = {
      startedAt,
      finishedAt,
      requests: answered + errors,
      non2xx,
      errors,
      timeouts,
      latency: { p50: Math.round(percentile(sorted, 0.5)), p99: Math.round(percentile(sorted, 0.99)), max: Math.round(sorted.at(-1) ?? 0) },
      cpuSeconds: (usage.user + usage.system) / 1e6,
    };
    console.log(JSON.stringify(out));
  };
  const settledAll = (): boolean => answered + errors >= amount;

  /** Closed loop: the connection's next request, written now. */
  const sendNext = (connection: Connection): void => {
    if (sent >= amount || finished) return;
    connection.queue(wire[sent++ % wire.length]!, performance.now());
    connection.flush();
  };

  const hooks: RunHooks = {
    answered(connection, start, now, status) {
      latencies[answered++] = now - start;
      if (status < 200 || status >= 300) non2xx++;
      lastProgress = now;
      if (settledAll()) finish();
      else if (!rate) sendNext(connection);
    },
    lost(connection, count) {
      errors += count;
      lastProgress = performance.now();
      if (settledAll()) finish();
      else if (!rate) for (let i = 0; i < count; i++) sendNext(connection);
    },
    over: () => finished,
  };
  const connections = Array.from({ length: Math.max(1, Math.floor(options.connections) || 1) }, () => new Connection(hostname, port, hooks));
  // Connect first, so no request's latency holds a TCP handshake (a connection that cannot be
  // opened within 10 s is retried by its first request).
  let connectTimer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(connections.map((c) => c.open())), new Promise((resolve) => (connectTimer = setTimeout(resolve, 10_000)))]);
  clearTimeout(connectTimer);

  startedAt = Date.now();
  lastProgress = performance.now();
  const watchdog = setInterval(() => {
    const sending = rate ? sent < amount : false;
    if (!sending && performance.now() - lastProgress > ANSWER_TIMEOUT_MS) finish();
  }, 1000);
  if (amount === 0) return finish();

  if (!rate) {
    for (const connection of connections) sendNext(connection);
    return;
  }

  // Open loop: request i is due at t0 + i * interval; each tick writes all that are due.
  const interval = 1000 / rate;
  const t0 = performance.now();
  let cursor = 0;
  const tick = (): void => {
    const now = performance.now();
    let due = t0 + sent * interval;
    if (due <= now) {
      while (sent < amount && due <= now) {
        // The connection with the fewest outstanding requests, ties taken in turn.
        let best = connections[cursor]!;
        for (let k = 1; k < connections.length; k++) {
          const c = connections[(cursor + k) % connections.length]!;
          if (c.outstanding.length < best.outstanding.length) best = c;
        }
        cursor = (cursor + 1) % connections.length;
        best.queue(wire[sent % wire.length]!, due);
        sent++;
        due = t0 + sent * interval;
      }
      for (const connection of connections) connection.flush();
      if (sent >= amount) lastProgress = Math.max(lastProgress, performance.now());
    }
    if (sent < amount && !finished) tickTimer = setTimeout(tick, Math.max(1, due - performance.now()));
  };
  tick();
}

run(JSON.parse(process.argv[2] ?? '{}') as Options).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
