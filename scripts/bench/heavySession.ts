// The heavy session of `npm run bench:webview` (issue 18 item 2): turn scripts for the scripted
// agent, generated deterministically from a seed (no data files), with the payloads long real
// sessions carry — thinking, file reads of 5–50 KB, edit diffs, 200-chunk Bash streams, prose.
// The agent's events go through the real session engine, so the frames the host publishes are the
// engine's own (turn.start/end, state changes, usage) around these events.
import type { Step, TurnScript } from '../../test/support/scriptedAdapter';
import { mulberry32 } from '../../src/workspace/seededRandom';

const WORDS = ('the session host journal frame buffer ring view transcript reducer token parse render scroll virtual row ' +
  'agent tool result stream chunk diff hunk file read write edit ledger policy budget byte heap paint append batch ' +
  'const let return function import export interface type await async promise error value index length offset').split(' ');
const IDENTS = ['handler', 'options', 'result', 'frames', 'entry', 'cursor', 'budget', 'state', 'buffer', 'listener'];
const DIRS = ['src/host', 'src/session', 'src/protocol', 'webview-ui/src/view', 'src/agents', 'src/tools'];

export interface HeavyGenerator {
  /** The script of turn `index`: about `frames` agent events (the engine adds its own around them). */
  turn(index: number, frames: number, options?: { live?: boolean }): TurnScript;
}

export function heavyGenerator(seed: number): HeavyGenerator {
  const rnd = mulberry32(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const path = () => `${pick(DIRS)}/${pick(IDENTS)}${int(1, 400)}.ts`;
  const codeLine = (i: number) => {
    const id = pick(IDENTS);
    switch (i % 5) {
      case 0: return `export function ${id}${i}(${pick(IDENTS)}: string): number {`;
      case 1: return `  const ${id} = await ${pick(IDENTS)}.${pick(WORDS)}(${int(0, 999)});`;
      case 2: return `  // ${words(int(4, 12))}`;
      case 3: return `  if (${id}.length > ${int(1, 4096)}) return ${id}.${pick(WORDS)}();`;
      default: return '}';
    }
  };
  /** Read's file_content: numbered lines, about `bytes` long. */
  const fileText = (bytes: number) => {
    const lines: string[] = [];
    let n = 0;
    for (let i = 1; n < bytes; i++) {
      const l = `${String(i).padStart(6)}\t${codeLine(i)}`;
      lines.push(l);
      n += l.length + 1;
    }
    return lines.join('\n');
  };
  const diff = (file_path: string) => {
    const hunks = Array.from({ length: int(1, 4) }, (_, h) => {
      const start = 10 + h * 80 + int(0, 40);
      const ctx = (k: number) => ` ${codeLine(start + k)}`;
      const removed = int(1, 6);
      const added = int(1, 8);
      const lines = [ctx(0), ctx(1), ...Array.from({ length: removed }, (_, k) => `-${codeLine(start + 2 + k)}`), ...Array.from({ length: added }, (_, k) => `+${codeLine(start + 7 + k)}`), ctx(2)];
      return { old_start: start, old_lines: 3 + removed, new_start: start, new_lines: 3 + added, lines, removed, added };
    });
    return {
      file_path,
      created: false,
      unified_diff: '',
      hunks: hunks.map(({ removed: _r, added: _a, ...rest }) => rest),
      additions: hunks.reduce((s, x) => s + x.added, 0),
      deletions: hunks.reduce((s, x) => s + x.removed, 0),
    };
  };
  const chunks = (n: number, per: () => string) => Array.from({ length: n }, per);

  return {
    turn(index, frames, options = {}) {
      const steps: Step[] = [];
      let left = frames;
      // Between steps of a live turn the agent's process yields, as a real CLI's output arrives.
      const tick = () => {
        if (options.live) steps.push({ kind: 'waitFor', promise: new Promise((r) => setImmediate(r)) });
      };
      const add = (s: Step, cost: number) => {
        steps.push(s);
        left -= cost;
        tick();
      };
      // Every eighth turn runs a build: a 200-chunk Bash stream (request + 200 chunks + result).
      if (index % 8 === 7 && left >= 210) {
        const stream = chunks(200, () => `${words(int(3, 14))}\n`);
        const input = { command: `npm run ${pick(['build', 'test', 'lint'])}` };
        const output = `exit 0\n${words(8)}\n`;
        if (!options.live) add({ kind: 'tool', name: 'Bash', input, stream, output, output_type: 'text' }, 202);
        else {
          // Live, the stream arrives in bursts of 10 chunks, each burst its own task (a real process's pipe).
          const invocation_id = `bash-${index}`;
          add({ kind: 'emit', event: { type: 'tool.invoke.request', payload: { invocation_id, tool_name: 'Bash', input } } }, 1);
          for (let s = 0; s < 200; s += 10) {
            for (let k = s; k < s + 10; k++) steps.push({ kind: 'emit', event: { type: 'tool.invoke.stream', payload: { invocation_id, tool_name: 'Bash', stream_type: 'stdout', chunk: stream[k], sequence: k } } });
            left -= 10;
            tick();
          }
          add({ kind: 'emit', event: { type: 'tool.invoke.result', payload: { invocation_id, tool_name: 'Bash', status: 'success', output, output_type: 'text' } } }, 1);
        }
      }
      if (left >= 12) {
        const n = Math.min(int(6, 14), left - 6);
        add({ kind: 'thinking', chunks: chunks(n, () => `${words(int(4, 16))} `) }, n + 1);
      }
      if (left >= 4) add({ kind: 'tool', name: 'Read', input: { file_path: path() }, output: fileText(int(5 * 1024, 50 * 1024)), output_type: 'file_content' }, 2);
      if (left >= 4 && index % 2 === 0) {
        const p = path();
        add({ kind: 'tool', name: 'Edit', input: { file_path: p, old_string: codeLine(3), new_string: codeLine(4) }, output: diff(p), output_type: 'diff' }, 2);
      }
      if (left >= 4 && index % 3 === 0) add({ kind: 'tool', name: 'Grep', input: { pattern: pick(IDENTS) }, output: chunks(int(3, 20), () => `${path()}:${int(1, 900)}: ${codeLine(int(0, 9))}`).join('\n'), output_type: 'text' }, 2);
      // The rest is the answer's prose, one delta per few words (and its done).
      const n = Math.max(1, left - 1);
      add({ kind: 'text', chunks: chunks(n, () => `${words(int(2, 9))} `) }, n + 1);
      return { steps };
    },
  };
}
