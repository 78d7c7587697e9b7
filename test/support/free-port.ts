import net from 'node:net';

/**
 * A port nothing listens on now. Tests ask for one instead of picking a random number: a random pick
 * in the ephemeral range can meet the local port of an outgoing connection and fail to bind.
 */
export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve, reject) => {
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', resolve);
  });
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}
