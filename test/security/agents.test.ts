// Issue 12 #5 against a real `rawp serve`: `POST /v1/sessions {"agent":"acp:sh -c '…'"}` used to
// run any command as the host's user, with no prompt and no frame. Now a session's agent is one of
// the host's configured and detected agents, named by id; anything else is a 400 and spawns nothing.
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { http } from '../unit/remote/harness';
import { serve, stopAll, type ServeChild } from './serveProcess';

/** Processes whose parent is `pid` (from /proc, Linux). */
function childrenOf(pid: number): number[] {
  const kids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) kids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return kids;
}

function create(s: ServeChild, body: unknown): Promise<{ status: number; body: string }> {
  return http(`${s.url}/v1/sessions`, { method: 'POST', headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

describe('security/agents: a master cannot choose a command line as its agent (issue 12 #5)', function () {
  this.timeout(120_000);
  afterEach(stopAll);

  it('POST /v1/sessions with an agent that is not one of the host’s (acp command lines, shell tricks, paths) is refused with 400; no marker file, no child process, no session', async () => {
    const s = await serve();
    const marker = join(s.dir, 'MARKER');
    const before = childrenOf(s.proc.pid!);
    const hostile = [
      `acp:sh -c 'touch ${marker}'`,
      `acp:/bin/sh -c "touch ${marker}"`,
      `acp:touch ${marker}`,
      `acp:env touch ${marker}`,
      `builtin; touch ${marker}`,
      `claude-code && touch ${marker}`,
      `/usr/bin/touch ${marker}`,
      'acp:',
    ];
    for (const agent of hostile) {
      const r = await create(s, { agent });
      assert.equal(r.status, 400, `${agent}: ${r.status} ${r.body}`);
      assert.match(JSON.parse(r.body).error, /unknown agent|unavailable/, agent);
    }
    // Give a spawned process every chance to have run.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(existsSync(marker), false, 'a hostile agent string ran a command');
    assert.deepEqual(childrenOf(s.proc.pid!).filter((p) => !before.includes(p)), [], 'a process was spawned');
    const list = JSON.parse((await http(`${s.url}/v1/sessions`, { headers: { authorization: `Bearer ${s.token}` } })).body) as { sessions: unknown[] };
    assert.equal(list.sessions.length, 1, 'no session was created');
    assert.ok(s.alive());
  });

  it('an agent the host has (by id) is created: 201, and it is listed', async () => {
    const s = await serve();
    const r = await create(s, { agent: 'builtin', name: 'second' });
    assert.equal(r.status, 201, r.body);
    const { session_id } = JSON.parse(r.body) as { session_id: string };
    const list = JSON.parse((await http(`${s.url}/v1/sessions`, { headers: { authorization: `Bearer ${s.token}` } })).body) as { sessions: { session_id: string; name: string }[] };
    assert.equal(list.sessions.length, 2);
    assert.equal(list.sessions.find((x) => x.session_id === session_id)?.name, 'second');
  });
});
