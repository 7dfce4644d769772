// Found attacking `rawp serve --verbose`: a master's frame of an unknown type is logged by its type,
// and the type went to the operator's stderr as it was — an escape sequence reached the terminal
// (a window title here; OSC 52 writes the clipboard the same way), a newline wrote a forged
// `[error]` line, and a 1 MB type wrote a 1 MB line per frame. Now each part of a line is shown,
// never obeyed, and cut (src/cli/logLine.ts). A real `rawp serve` child, a real master.
import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { waitFor } from '../unit/remote/harness';
import { serve, stopAll } from './serveProcess';

describe('security/log injection: what masters send cannot write to the operator\'s terminal through rawp serve --verbose', function () {
  this.timeout(120_000);
  afterEach(stopAll);

  /** A `rawp serve --verbose` child, a master sending one frame of each type, and what the log said of them. */
  async function loggedTypes(types: string[]) {
    const child = await serve({ args: ['--verbose'] });
    const m = await child.master();
    const from = child.err.length;
    for (const type of types) m.client.sendRaw(JSON.stringify({ v: 1, type, message_id: randomUUID(), timestamp: new Date().toISOString(), session_id: child.session_id, payload: {} }));
    await waitFor(() => (child.err.slice(from).match(/unknown frame type/g) ?? []).length >= types.length, 'every frame logged', 20_000);
    return { child, log: child.err.slice(from) };
  }

  it('frame types with escape sequences, newlines and a 100,000-character type are logged shown, one line each, cut', async () => {
    const { child, log } = await loggedTypes(['x\u001b]0;PWNED\u0007\u001b[31mred\n[error] forged line', `y${'Z'.repeat(100_000)}`]);
    assert.ok(!log.includes('\u001b'), 'no escape character reached stderr');
    assert.ok(!/^\[error\] forged/m.test(log), 'no forged line');
    assert.match(log, /␛]0;PWNED␇␛\[31mred␊\[error\] forged line/);
    const longest = Math.max(...log.split('\n').map((l) => l.length));
    assert.ok(longest < 5000, `the longest line has ${longest} characters`);
    assert.ok(child.alive());
  });

  it('a frame type with a bidi override or a zero-width space is logged with them shown by name, so the line reads as it is (decision 722)', async () => {
    const { log } = await loggedTypes(['agent.\u202Etxt.exe', 'sess\u200Bion.ended']);
    assert.ok(!/[\u202a-\u202e\u2066-\u2069\u200b]/.test(log), 'no bidi control or zero-width space reached stderr');
    assert.match(log, /agent\.<U\+202E>txt\.exe/);
    assert.match(log, /sess<U\+200B>ion\.ended/);
  });
});
