// Run by globManyFiles.test.ts under a real `ulimit -n 256`: a workspace of 20,000 files, three of
// them the newest, and the built-in agent's `files **/*.txt` over it (the trial of decision 576).
// Prints one JSON line: the Glob result, the agent's reply, the time taken and the most
// descriptors this process held meanwhile (sampled from /proc/self/fd).
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { BuiltinAgent } from '../../../src/agents/builtin';
import { FakeHost } from '../../support/fakeHost';
import { makeEnv } from './_env';

const FILES = 20_000;

/** Descriptors this process holds; the limit itself when none is left even to count them. */
function openDescriptors(): number {
  try {
    return existsSync('/proc/self/fd') ? readdirSync('/proc/self/fd').length : 0;
  } catch {
    return 256; // EMFILE: the limit was reached (the child runs under `ulimit -n 256`)
  }
}

async function main(): Promise<void> {
  const env = makeEnv();
  mkdirSync(env.p('many'));
  for (let i = 0; i < FILES; i++) writeFileSync(env.p(`many/f${String(i).padStart(5, '0')}.txt`), 'x');
  const future = Date.now() / 1000 + 3600;
  ['f00007', 'f12345', 'f19999'].forEach((name, i) => utimesSync(env.p(`many/${name}.txt`), future - i, future - i));
  const host = new FakeHost(env.dir);
  const agent = new BuiltinAgent({ language: 'en' });
  await agent.start(host);
  const ask = (text: string) => agent.prompt({ turn_id: globalThis.crypto.randomUUID(), turn_index: 0, text, input_type: 'text', mode: 'default', file_references: [], context_files: [] }, new AbortController().signal);
  await ask('files none'); // the search worker runs before the count begins

  const before = openDescriptors();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, openDescriptors())), 2);
  const started = Date.now();
  await ask('files **/*.txt');
  const ms = Date.now() - started;
  clearInterval(sampler);
  await agent.dispose();
  const glob = host.ofType('tool.invoke.result').at(-1)!.payload;
  const output = Array.isArray(glob.output) ? (glob.output as string[]) : [];
  const reply = host.ofType('agent.text.done').at(-1)?.payload.full_text ?? '';

  const error = glob.status === 'success' ? undefined : String(glob.output);
  process.stdout.write(`${JSON.stringify({ status: glob.status, error, count: output.length, first: output.slice(0, 3), truncated: glob.truncated, ms, before, peak, reply })}\n`);
  // A failed Glob (before decision 576) left its stats running, holding the descriptors a while.
  for (let attempt = 0; ; attempt++) {
    try {
      env.cleanup();
      break;
    } catch (e) {
      if (attempt >= 20) throw e;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`child failed: ${String(e)}\n`);
    process.exit(3);
  },
);
