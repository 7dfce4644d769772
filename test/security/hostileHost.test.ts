// Security property "the host `rawp attach` talks to is not trusted with the terminal nor with the
// attach's memory" (decision 703): whoever answers at the URL (a host that is not ours, or anyone
// between when the host runs plain http) may send anything. Each case is a real HTTP/WebSocket
// server in this process playing that host, and the built `rawp attach` as a child process.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { DPS_SUBPROTOCOL } from '../../src/remote/controlPlane';
import { ATTACH_MAX_FRAME_BYTES } from '../../src/cli/attach/terminalMaster';
import { CLI, ROOT, ensureBuilt } from './serveProcess';

const SESSION = 'sess-1';
// eslint-disable-next-line no-control-regex
const RAW_CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

interface FakeHost {
  url: string;
  server: Server;
  wss: WebSocketServer;
}

async function fakeHost(answer: (req: IncomingMessage, res: ServerResponse) => void, onSocket?: (ws: WebSocket, req: IncomingMessage) => void): Promise<FakeHost> {
  const server = createServer(answer);
  const wss = new WebSocketServer({ server, handleProtocols: (offered) => (offered.has(DPS_SUBPROTOCOL) ? DPS_SUBPROTOCOL : false) });
  if (onSocket) wss.on('connection', onSocket);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, wss };
}

const children = new Set<ReturnType<typeof spawn>>();

/** `rawp attach ARGS` with no input; killed after `ms` if it has not left by then (or when the test ends). */
function attach(args: string[], ms = 20_000): Promise<{ code: number | null; out: string; err: string; killed: boolean }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [CLI, 'attach', ...args], { cwd: ROOT, env: { ...process.env, RAWP_TOKEN: 'x'.repeat(40), LANG: 'C' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let killed = false;
    children.add(p);
    p.stdout.on('data', (c: Buffer) => (out += c.toString()));
    p.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const timer = setTimeout(() => {
      killed = true;
      p.kill('SIGKILL');
    }, ms);
    p.on('exit', (code) => {
      children.delete(p);
      clearTimeout(timer);
      resolve({ code, out, err, killed });
    });
    p.stdin.end();
  });
}

describe('security: a hostile host and rawp attach (decision 703; real HTTP and WebSocket server, built CLI)', function () {
  this.timeout(60_000);
  before(() => ensureBuilt());
  const hosts: FakeHost[] = [];
  afterEach(async () => {
    for (const p of children) p.kill('SIGKILL');
    for (const h of hosts.splice(0)) {
      for (const c of h.wss.clients) c.terminate();
      h.wss.close();
      h.server.closeAllConnections();
      await new Promise((resolve) => h.server.close(resolve));
    }
  });

  it('an error answer with escape sequences (title, clear screen, OSC 52 clipboard) is quoted with its controls shown and cut short, on listing and on --continue', async () => {
    const evil = '\x1b]0;PWNED\x07\x1b[2J\x1b[31mFAKE: rawp attach: token accepted\x1b[0m ' + 'y'.repeat(5000);
    const h = await fakeHost((req, res) => {
      if (req.url?.endsWith('/continue')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: `\x1b]52;c;ZWNobyBwd25lZA==\x07${evil}` }));
        return;
      }
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(evil);
    });
    hosts.push(h);
    for (const args of [[h.url], [h.url, '--continue', 'ended-1']]) {
      const r = await attach(args);
      assert.equal(r.code, 1, r.err);
      assert.deepEqual(r.err.match(RAW_CONTROLS), null, `raw control characters on stderr: ${JSON.stringify(r.err)}`);
      assert.match(r.err, /␛\]0;PWNED␇␛\[2J/);
      assert.ok(r.err.length < 600, `the host's 5,000 characters are cut: ${r.err.length}`);
      assert.match(r.err, /…/);
    }
  });

  it('a session list that never ends is refused after 1 MiB, in words, not read until the process runs out of memory', async () => {
    const h = await fakeHost((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1 << 20, 0x61);
      let sent = 0;
      const more = (): void => {
        while (sent < 2000 && !res.destroyed) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      res.write('{"sessions":"');
      more();
    });
    hosts.push(h);
    const r = await attach([h.url]);
    assert.equal(r.killed, false, 'attach left by itself');
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, /v1\/sessions: the answer is longer than 1048576 bytes/);
    assert.doesNotMatch(r.err, /RangeError|at .*\.js:\d+/, 'a worded error, not a stack trace');
  });

  it('a session id from the host that is not one (a path, an escape) is refused, never put into the next URL nor printed raw', async () => {
    for (const id of ['../../v1/files/secret', '\x1b]0;x\x07', '']) {
      let asked: string | undefined;
      const h = await fakeHost((req, res) => {
        asked ??= req.url;
        if (req.url !== '/v1/sessions') asked = req.url;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ sessions: [{ session_id: id, name: 'x' }] }));
      });
      hosts.push(h);
      const r = await attach([h.url]);
      assert.equal(r.code, 1, r.err);
      assert.match(r.err, /listing sessions: the answer is not a list of sessions/);
      assert.equal(asked, '/v1/sessions', 'nothing was asked after the list');
      assert.deepEqual(r.err.match(RAW_CONTROLS), null);
    }
  });

  it('§13.1 the stream offers no compression, announces its max_frame_size, and a bigger message closes the socket (1009) instead of being read', async () => {
    let extensionsOffered: string | undefined;
    let announced: number | undefined;
    const closed = new Promise<number>((resolve) => {
      void fakeHost(
        (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ sessions: [{ session_id: SESSION, name: 'x' }] }));
        },
        (ws, req) => {
          extensionsOffered = req.headers['sec-websocket-extensions'];
          ws.once('message', (data) => {
            announced = (JSON.parse(String(data)) as { payload: { max_frame_size?: number } }).payload.max_frame_size;
            ws.send('x'.repeat(ATTACH_MAX_FRAME_BYTES + 1));
          });
          ws.once('close', (code) => resolve(code));
        },
      ).then((h) => {
        hosts.push(h);
        void attach([h.url], 15_000);
      });
    });
    assert.equal(await closed, 1009);
    assert.equal(extensionsOffered, undefined, 'no permessage-deflate offered');
    assert.equal(announced, ATTACH_MAX_FRAME_BYTES);
  });
});
