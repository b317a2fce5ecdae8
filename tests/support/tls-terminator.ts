import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';

export interface TlsTerminator {
  port: number;
  /** The self-signed certificate (PEM) that clients must trust. */
  certificate: string;
  close(): Promise<void>;
}

/**
 * HTTPS in front of a plain-HTTP app, as the ingress does in production: a fresh self-signed certificate
 * for 127.0.0.1 (made with the openssl CLI) and a TLS socket piped to the app's port.
 */
export async function startTlsTerminator(upstreamPort: () => number): Promise<TlsTerminator> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tls-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore', timeout: 20_000 },
  );
  const key = readFileSync(keyFile, 'utf8');
  const certificate = readFileSync(certFile, 'utf8');
  rmSync(dir, { recursive: true, force: true });
  const sockets = new Set<net.Socket>();
  const server = tls.createServer({ key, cert: certificate }, (socket) => {
    const upstream = net.connect(upstreamPort(), '127.0.0.1');
    for (const s of [socket, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        socket.destroy();
        upstream.destroy();
      });
    }
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    certificate,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
