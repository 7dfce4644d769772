// The server's connection cap (decision 562), with room made at the cap (decision 569): a new
// connection takes the place of the oldest one that has not sent a request yet. Node's own
// `maxConnections` closed every new connection while the cap was full, so a few hundred silent
// connections — no token needed — kept every master and every health check out until the headers
// timeout freed them (~11 s), again and again. Connections that have sent a request (answered,
// streaming, upgraded to a master) are never taken; a silent one is someone's at most until its
// headers arrive, which on the control plane's loopback or LAN is a few milliseconds. The room is
// made by the source holding the most silent connections (decision 574), so a flood from one
// address takes its own places, not a slower client's from elsewhere.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '../session/ports';
import { SilentConnections } from './silentConnections';

export interface ConnectionCapCounts {
  /** Silent connections closed to make room for a new one. */
  evicted: number;
  /** New connections closed at once: the cap was full of connections that had sent a request. */
  dropped: number;
}

/**
 * Caps `server` at `cap` open connections. At the cap a new connection closes a silent one (no
 * request yet: for TLS, a finished handshake and no request), the oldest of the source holding the
 * most; when there is none, the new connection is closed at once. Logged at most once every 10 s
 * with the counts meanwhile.
 */
export function capConnections(server: Server, cap: number, logger: Logger): ConnectionCapCounts {
  const counts: ConnectionCapCounts = { evicted: 0, dropped: 0 };
  // Open raw connections, less those closed to make room whose close has not come yet.
  let open = 0;
  let leaving = 0;
  // Silent connections by source, oldest first. For TLS these are the decrypted sockets: a request
  // names them, not the raw sockets under them.
  const silent = new SilentConnections();
  let logged = { evicted: 0, dropped: 0 };
  let quietUntil = 0;
  const report = () => {
    const now = Date.now();
    if (now < quietUntil) return;
    quietUntil = now + 10_000;
    logger.warn(`${cap} connections are open, the most this host accepts: silent ones make room for new ones (the oldest of the address holding the most), and when none is silent new connections are closed at once`, { evicted: counts.evicted - logged.evicted, dropped: counts.dropped - logged.dropped });
    logged = { ...counts };
  };
  const close = (socket: Socket) => {
    silent.delete(socket);
    leaving++;
    socket.once('close', () => leaving--);
    socket.destroy();
  };
  const watchSilent = (socket: Socket) => {
    silent.add(socket);
    socket.once('close', () => silent.delete(socket));
  };
  const tls = 'setSecureContext' in server;
  server.on('connection', (socket: Socket) => {
    open++;
    socket.once('close', () => open--);
    if (!tls) watchSilent(socket);
    if (open - leaving <= cap) return;
    const victim = silent.victim(socket);
    if (victim !== undefined) counts.evicted++;
    else counts.dropped++;
    close(victim ?? socket);
    report();
  });
  if (tls) server.on('secureConnection', watchSilent);
  // A connection that sent a request is busy until its answer is sent; a kept-alive connection
  // waiting for its next request is silent again (the newest), an upgraded one never is.
  // The socket is taken now: Node lets go of `req.socket` once an answer is done.
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    silent.delete(socket);
    res.once('finish', () => {
      if (!socket.destroyed) silent.add(socket);
    });
  });
  server.on('upgrade', (req: IncomingMessage) => silent.delete(req.socket));
  return counts;
}
