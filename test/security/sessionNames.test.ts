// Found attacking `rawp serve`: a session's name went everywhere as it was given — a newline and
// escape sequences into `rawp attach`'s list and every master's, a right-to-left override that made
// "\u202Egnp.exe" read as "exe.png", and a master's session.renamed of a megabyte into every list,
// the journal's index and every other master. Now a name is one line of visible text of at most
// 200 characters (src/protocol/sessionName.ts, decision 566). A real `rawp serve` child, real masters.
import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import type { FrameOf } from '../../src/protocol';
import { http, waitFor } from '../unit/remote/harness';
import { serve, stopAll } from './serveProcess';

describe('security/session names: one line of visible text, whoever names the session (decision 566)', function () {
  this.timeout(120_000);
  afterEach(stopAll);

  const listed = async (child: { url: string; token: string }, id: string) => {
    const r = await http(`${child.url}/v1/sessions`, { headers: { authorization: `Bearer ${child.token}` } });
    return (JSON.parse(r.body) as { sessions: { session_id: string; name: string }[] }).sessions.find((s) => s.session_id === id)?.name;
  };

  it('§7.6 POST /v1/sessions keeps the visible text of a name (no breaks, escapes or direction overrides) and refuses a name with none', async () => {
    const child = await serve();
    const create = (name: string) => http(`${child.url}/v1/sessions`, { method: 'POST', headers: { authorization: `Bearer ${child.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
    const made = await create('report\u202Egnp.exe\n[error] forged\u001b[31m  line');
    assert.equal(made.status, 201, made.body);
    const { session_id } = JSON.parse(made.body) as { session_id: string };
    assert.equal(await listed(child, session_id), 'reportgnp.exe [error] forged [31m line');
    const blank = await create('\u202E\u2066 \n\t\u200F');
    assert.equal(blank.status, 400);
    assert.match(blank.body, /no visible characters/);
    assert.ok(child.alive());
  });

  it('§7.6.1 a master\'s session.renamed reaches the others cleaned and cut to 200 characters; a blank one is answered with session.error', async () => {
    const child = await serve();
    const a = await child.master();
    const b = await child.master();
    const rename = (name: string) => {
      const message_id = randomUUID();
      a.client.sendRaw(JSON.stringify({ v: 1, type: 'session.renamed', message_id, timestamp: new Date().toISOString(), session_id: child.session_id, payload: { session_id: child.session_id, name, renamed_by: 'master' } }));
      return message_id;
    };
    const renames = () => b.frames.filter((f): f is FrameOf<'session.renamed'> => f.type === 'session.renamed');
    rename(`\u001b]0;title\u0007${'가'.repeat(1_000_000)}`);
    await waitFor(() => renames().length === 1, 'the rename reached master b');
    const name = renames()[0].payload.name;
    assert.equal(name.length, 200);
    assert.ok(name.startsWith(']0;title 가가'), name.slice(0, 20));
    assert.ok(!/[\u0000-\u001f]/.test(name));
    assert.equal(await listed(child, child.session_id), name);

    const blank = rename('\u202E\u2028\u0000 ');
    await waitFor(() => a.frames.some((f) => f.type === 'session.error' && f.parent_id === blank), 'the blank rename answered');
    const error = a.frames.find((f): f is FrameOf<'session.error'> => f.type === 'session.error' && f.parent_id === blank)!;
    assert.equal(error.payload.error_code, 'INVALID_PAYLOAD');
    assert.equal(error.payload.fatal, false);
    assert.equal(renames().length, 1, 'no second rename reached master b');
    assert.equal(await listed(child, child.session_id), name);
    assert.ok(child.alive());
  });
});
