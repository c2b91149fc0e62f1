/**
 * A TCP server on a free loopback port that accepts connections and never says a word: a wrong port, a
 * hung proxy, a Redis paused before it answered.
 */
import { createServer, type Server, type Socket } from 'node:net';

export interface SilentServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => void sockets.add(socket));
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}
