import net from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  /** The whole body: an answer is returned only once as many bytes as its Content-Length have arrived. */
  body: string;
}

export interface RawConnection {
  /** Everything the server has sent so far (latin1, so that lengths are bytes). */
  received(): string;
  /** How the server ended the connection: a clean close (FIN), a reset, or not yet. */
  ending(): 'open' | 'end' | 'reset';
  write(data: string | Buffer): void;
  /** The last final (non-1xx) response received, once it is complete. */
  answer(): RawAnswer | undefined;
  destroy(): void;
}

/**
 * One HTTP/1.1 connection over a plain socket, as a keep-alive client holds it through an L4 load balancer: what
 * the server sends and how it closes the connection are seen byte for byte (no client library retries or hides).
 */
export async function rawConnection(port: number): Promise<RawConnection> {
  const socket = net.connect(port, '127.0.0.1');
  let data = '';
  let ending: 'open' | 'end' | 'reset' = 'open';
  socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
  socket.on('end', () => (ending = ending === 'open' ? 'end' : ending));
  socket.on('error', () => (ending = 'reset'));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return {
    received: () => data,
    ending: () => ending,
    write: (chunk) => void socket.write(chunk),
    answer: () => lastAnswer(data),
    destroy: () => socket.destroy(),
  };
}

function lastAnswer(data: string): RawAnswer | undefined {
  let rest = data;
  let answer: RawAnswer | undefined;
  for (;;) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) return answer;
    const [statusLine, ...lines] = rest.slice(0, headEnd).split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
    const headers = Object.fromEntries(
      lines.map((line) => [
        line.slice(0, line.indexOf(':')).trim().toLowerCase(),
        line.slice(line.indexOf(':') + 1).trim(),
      ]),
    );
    rest = rest.slice(headEnd + 4);
    if (status >= 100 && status < 200) continue;
    const length = Number(headers['content-length'] ?? 0);
    if (rest.length < length) return answer;
    answer = { status, headers, body: Buffer.from(rest.slice(0, length), 'latin1').toString('utf8') };
    rest = rest.slice(length);
  }
}
