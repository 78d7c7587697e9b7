/**
 * A pass-through on 127.0.0.1 in front of the real PostgreSQL that writes down every round trip a
 * client starts: a simple-protocol Query ('Q', its text) or an extended-protocol exchange up to
 * its Sync ('P' … 'S', the parsed text). Bytes are forwarded unchanged both ways; only the
 * client's messages after the startup packet are read.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface RoundTrip {
  /** Connection number, in the order connections were opened. */
  conn: number;
  /** The database the connection opened. */
  database: string;
  sql: string;
}

export async function startPgRecorder(target: { host: string; port: number }) {
  const trips: RoundTrip[] = [];
  const sockets = new Set<net.Socket>();
  let conns = 0;
  const server = net.createServer((client) => {
    const conn = ++conns;
    const upstream = net.connect(target.port, target.host);
    sockets.add(client).add(upstream);
    let buf = Buffer.alloc(0);
    let started = false;
    let database = '';
    let pending: string[] = [];
    client.on('data', (chunk) => {
      upstream.write(chunk);
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        if (!started) {
          // Untyped startup packets: an SSL or GSS request (8 bytes, answered by one byte) or the startup itself.
          if (buf.length < 8) return;
          const len = buf.readInt32BE(0);
          if (buf.length < len) return;
          const code = buf.readInt32BE(4);
          if (code !== 80877103 && code !== 80877104) {
            started = true;
            const params = buf.subarray(8, len).toString().split('\0');
            database = params[params.indexOf('database') + 1] ?? '';
          }
          buf = buf.subarray(len);
          continue;
        }
        if (buf.length < 5) return;
        const len = buf.readInt32BE(1);
        if (buf.length < len + 1) return;
        const type = String.fromCharCode(buf[0]);
        const body = buf.subarray(5, len + 1);
        if (type === 'Q') trips.push({ conn, database, sql: body.subarray(0, body.indexOf(0)).toString() });
        if (type === 'P') {
          const name = body.indexOf(0);
          pending.push(body.subarray(name + 1, body.indexOf(0, name + 1)).toString());
        }
        if (type === 'S') {
          trips.push({ conn, database, sql: pending.join('; ') || '(sync)' });
          pending = [];
        }
        buf = buf.subarray(len + 1);
      }
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', close).on('error', close);
    upstream.on('close', close).on('error', close);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    trips,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
