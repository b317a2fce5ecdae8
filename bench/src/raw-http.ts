import { connect, type Socket } from 'node:net';

export interface RawRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Called when a request's answer is complete, with its status (0: failed, or the connection closed first). */
export type Answered = (token: number, status: number) => void;

const CR = 13;
const LF = 10;
const CONTENT_LENGTH = Buffer.from('content-length:');
const TRANSFER_ENCODING = Buffer.from('transfer-encoding:');

/**
 * A keep-alive HTTP/1.1 connection for a load client, one request at a time: the request written as one
 * string, the answer read into one buffer reused for every read, its status and `content-length` parsed
 * from the bytes and its body skipped. Nothing per request outlives its answer, and a read allocates no more
 * than a view of its bytes: a client's own garbage collections stall it while the requests it times wait, and a few
 * milliseconds of them every few hundred milliseconds are the p99 of a fast server. For servers whose answers
 * carry a `content-length` (an answer without one fails, status 0).
 */
class RawConnection {
  private socket: Socket | undefined;
  private token = -1;
  private status = 0;
  /** The answer's header bytes read so far, when they arrived in more than one read. */
  private head: Buffer | undefined;
  private bodyLeft = -1;

  constructor(
    private readonly port: number,
    private readonly host: string,
    private readonly readBuffer: Buffer,
    private readonly answered: (connection: RawConnection, token: number, status: number) => void,
  ) {}

  get busy(): boolean {
    return this.token !== -1;
  }

  send(token: number, request: string): void {
    this.token = token;
    this.status = 0;
    this.head = undefined;
    this.bodyLeft = -1;
    (this.socket ??= this.open()).write(request, 'latin1');
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }

  private open(): Socket {
    const socket = connect({
      port: this.port,
      host: this.host,
      noDelay: true,
      onread: {
        buffer: this.readBuffer,
        callback: (length: number, buffer: Uint8Array) => this.read(buffer as Buffer, length),
      },
    });
    socket.on('error', () => undefined);
    // A socket closed on purpose (close()) is no longer this.socket: only one that failed fails its request.
    socket.on('close', () => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.finish(0);
    });
    return socket;
  }

  private finish(status: number): void {
    const token = this.token;
    if (token === -1) return;
    this.token = -1;
    this.answered(this, token, status);
  }

  private read(buffer: Buffer, length: number): boolean {
    let at = 0;
    while (at < length && this.token !== -1) {
      if (this.bodyLeft === -1) {
        at = this.headEnd(buffer, at, length);
        if (at === -1) return true;
      }
      const taken = Math.min(this.bodyLeft, length - at);
      this.bodyLeft -= taken;
      at += taken;
      if (this.bodyLeft === 0) this.finish(this.status);
    }
    return true;
  }

  /** Reads header bytes from `buffer[at..length)`; returns where the body starts in `buffer`, or -1 if the head goes on. */
  private headEnd(buffer: Buffer, at: number, length: number): number {
    // A head split over reads is gathered (rare: an answer's head is a few hundred bytes).
    const carried = this.head?.length ?? 0;
    const bytes =
      this.head === undefined ? buffer.subarray(at, length) : Buffer.concat([this.head, buffer.subarray(at, length)]);
    const blank = bytes.indexOf('\r\n\r\n', 0, 'latin1');
    if (blank === -1) {
      this.head = Buffer.from(bytes);
      return -1;
    }
    this.head = undefined;
    // "HTTP/1.1 301 ..."
    this.status = (bytes[9]! - 48) * 100 + (bytes[10]! - 48) * 10 + (bytes[11]! - 48);
    this.bodyLeft = headerNumber(bytes, blank, CONTENT_LENGTH);
    if (this.bodyLeft === -1 || headerNumber(bytes, blank, TRANSFER_ENCODING) !== -1) {
      // Its end cannot be found without reading chunks: failed, and the connection with it.
      this.close();
      this.finish(0);
      return -1;
    }
    return at + blank + 4 - carried;
  }
}

/** The value of header `name` (lower case, with its colon) in a head of `end` bytes, -1 when absent; non-digits are skipped. */
function headerNumber(bytes: Buffer, end: number, name: Buffer): number {
  for (let line = bytes.indexOf(LF) + 1; line > 0 && line < end; line = bytes.indexOf(LF, line) + 1) {
    let i = 0;
    while (i < name.length && (bytes[line + i]! | 0x20) === name[i]) i++;
    if (i < name.length) continue;
    let value = 0;
    for (let k = line + i; k < end && bytes[k] !== CR; k++) {
      const digit = bytes[k]! - 48;
      if (digit >= 0 && digit <= 9) value = value * 10 + digit;
    }
    return value;
  }
  return -1;
}

/**
 * `size` keep-alive connections to `origin`, and a queue of requests waiting for one: what a pool of a load
 * client does, with the allocations of none.
 */
export class RawHttpPool {
  private readonly idle: RawConnection[] = [];
  private readonly all: RawConnection[] = [];
  /** Requests waiting for a connection: tokens and their request text, in order. */
  private readonly waiting: Array<[number, string]> = [];
  private waitingFrom = 0;
  private readonly host: string;

  constructor(origin: string, size: number, answered: Answered) {
    const url = new URL(origin);
    if (url.protocol !== 'http:') throw new Error(`only http:// origins: ${origin}`);
    this.host = url.host;
    const onAnswer = (connection: RawConnection, token: number, status: number) => {
      answered(token, status);
      this.next(connection);
    };
    for (let i = 0; i < size; i++) {
      const connection = new RawConnection(Number(url.port || 80), url.hostname, Buffer.alloc(64 * 1024), onAnswer);
      this.all.push(connection);
      this.idle.push(connection);
    }
  }

  /** The request as written on a connection: request line, `host` (the origin's unless given), headers, body. */
  text(request: RawRequest): string {
    let text = `${request.method} ${request.path} HTTP/1.1\r\nhost: ${request.headers?.['host'] ?? this.host}\r\n`;
    for (const [name, value] of Object.entries(request.headers ?? {}))
      if (name.toLowerCase() !== 'host') text += `${name}: ${value}\r\n`;
    if (request.body !== undefined) text += `content-length: ${Buffer.byteLength(request.body)}\r\n\r\n${request.body}`;
    else text += '\r\n';
    return text;
  }

  send(token: number, text: string): void {
    const connection = this.idle.pop();
    if (connection) connection.send(token, text);
    else this.waiting.push([token, text]);
  }

  close(): void {
    for (const connection of this.all) connection.close();
  }

  private next(connection: RawConnection): void {
    if (connection.busy) return;
    if (this.waitingFrom < this.waiting.length) {
      const [token, text] = this.waiting[this.waitingFrom++]!;
      if (this.waitingFrom === this.waiting.length) {
        this.waiting.length = 0;
        this.waitingFrom = 0;
      }
      connection.send(token, text);
    } else this.idle.push(connection);
  }
}
