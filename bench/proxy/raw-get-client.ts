/**
 * The fixed-rate load's client: keep-alive GETs over plain TCP sockets that read every answer into one
 * buffer the client keeps (net's `onread`), parsing no more than where each answer ends (its
 * Content-Length, or its chunks). node:http's client gets a new buffer for every read of the socket: at
 * 200 pages of 134 KB a second that is 27 MB a second of memory outside the heap, which made V8 mark
 * the load generator's whole heap every half second or so, in pauses of 1-5 ms. Those pauses were in
 * most of the slowest 1% of the requests to every target, the simulator's own included, so the p99 the
 * proxies add was read through the load generator's garbage collection. This client allocates nothing
 * per read.
 */
import { connect, type Socket } from 'node:net';

/** Where the parser is in an answer: reading lines (a head, a chunk's size or end, trailers) or bytes. */
enum Part {
  Head,
  Body,
  ChunkSize,
  ChunkData,
  ChunkEnd,
  Trailers,
}

/** An answer's line is at most this long (bytes): anything longer is a broken server. */
const MAX_LINE = 65_536;

interface Waiting {
  resolve: (status: number) => void;
  reject: (error: Error) => void;
}

/** One keep-alive connection and the answer it is reading. */
class Connection {
  readonly socket: Socket;
  waiting: Waiting | undefined;
  private part = Part.Head;
  private line = '';
  private headLines: string[] = [];
  /** Bytes left of the body (Part.Body) or of the chunk (Part.ChunkData). */
  private remaining = 0;
  private status = 0;
  private closeAfter = false;

  constructor(
    host: string,
    port: number,
    shared: Buffer,
    private readonly onFree: (connection: Connection) => void,
  ) {
    this.socket = connect({
      host,
      port,
      onread: { buffer: shared, callback: (length, buffer) => this.read(buffer as Buffer, length) },
    });
    this.socket.setNoDelay(true);
    this.socket.on('error', (error) => this.fail(error));
    this.socket.on('close', () => this.fail(new Error('the connection closed before the answer ended')));
  }

  private fail(error: Error): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(error);
  }

  /** Reads `length` bytes of the answer from `buffer` (valid only during this call). */
  private read(buffer: Buffer, length: number): boolean {
    let at = 0;
    while (at < length && !this.socket.destroyed) {
      if (this.part === Part.Body || this.part === Part.ChunkData) {
        const taken = Math.min(this.remaining, length - at);
        this.remaining -= taken;
        at += taken;
        if (this.remaining === 0) {
          if (this.part === Part.Body) this.answered();
          else this.part = Part.ChunkEnd;
        }
        continue;
      }
      const newline = buffer.indexOf(10, at);
      const stop = newline < 0 || newline >= length ? length : newline + 1;
      this.line += buffer.toString('latin1', at, stop);
      at = stop;
      if (this.line.length > MAX_LINE) this.socket.destroy(new Error('an answer line longer than 64 KiB'));
      else if (this.line.endsWith('\n')) {
        const line = this.line.slice(0, this.line.endsWith('\r\n') ? -2 : -1);
        this.line = '';
        this.lineRead(line);
      }
    }
    return true;
  }

  private lineRead(line: string): void {
    if (this.part === Part.Head) {
      if (line === '') this.headRead();
      else this.headLines.push(line);
    } else if (this.part === Part.ChunkSize) {
      const size = Number.parseInt(line, 16);
      if (Number.isNaN(size)) this.socket.destroy(new Error(`a chunk size that is no number: ${line}`));
      else if (size === 0) this.part = Part.Trailers;
      else {
        this.remaining = size;
        this.part = Part.ChunkData;
      }
    } else if (this.part === Part.ChunkEnd) this.part = Part.ChunkSize;
    else if (line === '') this.answered();
  }

  private headRead(): void {
    const [statusLine = '', ...fields] = this.headLines;
    this.headLines = [];
    this.status = Number(statusLine.split(' ')[1]);
    let length = 0;
    let chunked = false;
    this.closeAfter = statusLine.startsWith('HTTP/1.0');
    for (const field of fields) {
      const colon = field.indexOf(':');
      const name = field.slice(0, colon).trim().toLowerCase();
      const value = field
        .slice(colon + 1)
        .trim()
        .toLowerCase();
      if (name === 'content-length') length = Number(value);
      else if (name === 'transfer-encoding') chunked = value.split(',').at(-1)!.trim() === 'chunked';
      else if (name === 'connection') this.closeAfter = value.includes('close');
    }
    if (chunked) this.part = Part.ChunkSize;
    else if (length > 0) {
      this.remaining = length;
      this.part = Part.Body;
    } else this.answered();
  }

  private answered(): void {
    this.part = Part.Head;
    const waiting = this.waiting;
    this.waiting = undefined;
    if (this.closeAfter) this.socket.destroy();
    waiting?.resolve(this.status);
    if (!this.socket.destroyed) this.onFree(this);
  }
}

export interface RawGetClient {
  /** One GET of the client's path; resolves with the status once the whole answer was read. */
  get(): Promise<number>;
  close(): void;
}

/** A client of `origin` that GETs `path` with `headers`, over at most `maxSockets` connections. */
export function createRawGetClient(
  origin: string,
  path: string,
  headers: Record<string, string>,
  maxSockets: number,
): RawGetClient {
  const target = new URL(origin);
  const port = Number(target.port || 80);
  let head = `GET ${path} HTTP/1.1\r\nhost: ${target.host}\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  const request = Buffer.from(`${head}\r\n`, 'latin1');
  const shared = Buffer.allocUnsafe(65_536);
  const idle: Connection[] = [];
  const all = new Set<Connection>();
  const queue: Waiting[] = [];
  const send = (connection: Connection, waiting: Waiting) => {
    connection.waiting = waiting;
    connection.socket.write(request);
  };
  const onFree = (connection: Connection) => {
    const next = queue.shift();
    if (next !== undefined) send(connection, next);
    else idle.push(connection);
  };
  const open = () => {
    const connection = new Connection(target.hostname, port, shared, onFree);
    all.add(connection);
    connection.socket.once('close', () => {
      all.delete(connection);
      const at = idle.indexOf(connection);
      if (at >= 0) idle.splice(at, 1);
      // A request queued for a connection that closed goes on a new one.
      const next = queue.shift();
      if (next !== undefined) send(open(), next);
    });
    return connection;
  };
  return {
    get: () =>
      new Promise<number>((resolve, reject) => {
        const waiting = { resolve, reject };
        let connection = idle.pop();
        while (connection?.socket.destroyed) connection = idle.pop();
        if (connection === undefined && all.size < maxSockets) connection = open();
        if (connection === undefined) queue.push(waiting);
        else send(connection, waiting);
      }),
    close() {
      for (const connection of all) connection.socket.destroy();
      for (const waiting of queue.splice(0)) waiting.reject(new Error('the client closed'));
    },
  };
}
