// `npm run bench:webview`: the chat webview in real Chromium with a long session.
//   load:   10,000 frames (about 200 turns with thinking, text, tools, streams, usage) delivered at once,
//           as a restored session or a reattach would; time until they are rendered.
//   append: a further live turn (text deltas, a streaming Bash call, tool results) delivered in small
//           batches at animation-frame cadence; per batch, the time to apply it, render and lay out.
//   then:   JS heap after a forced GC, and the number of DOM elements.
// Ends with one JSON line: {"bench":"webview","frames":10000,"load_ms":…,"append_p95_ms":…,"heap_mb":…,"dom_nodes":…}
// Then the heavy session through the real host → controller → postMessage path (webviewHeavy.ts)
// and its own line: {"bench":"webview","frames":100000,…,"heap_mb","append_p95_ms","host_heap_mb","first_paint_ms","scroll_p95_ms",…,"probe_1t_ms","probe_2t_ms"}
import type { Frame } from '../../src/protocol/frameTypes';
import { settle, startHarness } from '../../test/browser/harness';
import { longSession, sentence } from '../../test/browser/streams';
import { streamBuilder } from '../../test/fixtures/frames/streamBuilder';
import { heavyBench } from './webviewHeavy';
import { machineProbe } from './machineProbe';
import { openBenchPage, p95, timeLiveBatches, viewHeapMb } from './webviewPage';

const SESSION = '44444444-4444-4444-8444-444444444444';
const FRAMES = 10_000;
function liveTurn(b: ReturnType<typeof streamBuilder>): Frame[] {
  const turn_id = 'turn-live';
  const T = { turn_id };
  const f: Frame[] = [b.make('session.turn.start', { turn_id, turn_index: 100_000 }, T)];
  for (let k = 0; k < 600; k++) f.push(b.make('agent.text.delta', { content_index: 0, text: `${sentence(k, 3)} ` }, T));
  f.push(b.make('agent.text.done', { content_index: 0 }, T));
  f.push(b.make('tool.invoke.request', { invocation_id: 'live-bash', tool_name: 'Bash', input: { command: 'npm run build' } }, T));
  for (let s = 0; s < 400; s++) f.push(b.make('tool.invoke.stream', { invocation_id: 'live-bash', tool_name: 'Bash', stream_type: s % 10 === 0 ? 'stderr' : 'stdout', chunk: `[${s}] ${sentence(s, 6)}\n`, sequence: s }, T));
  f.push(b.make('tool.invoke.result', { invocation_id: 'live-bash', tool_name: 'Bash', status: 'success', output: 'built\n', output_type: 'text' }, T));
  f.push(b.make('session.turn.end', { turn_id, stop_reason: 'end_turn' }, T));
  return f;
}

async function main(): Promise<void> {
  const b = streamBuilder(SESSION, Date.parse('2026-03-16T08:00:00.000Z'));
  const frames = longSession(FRAMES, b);
  const live = liveTurn(b);
  const h = await startHarness({ minify: true });
  try {
    const page = await openBenchPage(h);
    await page.evaluate((s) => (window as unknown as { rawpFake: { attach(s: string): void } }).rawpFake.attach(s), SESSION);
    await settle(page);
    const payload = JSON.parse(JSON.stringify(frames)) as unknown[];
    const load_ms = await page.evaluate(
      ({ s, frames }) =>
        new Promise<number>((ok) => {
          const t0 = performance.now();
          (window as unknown as { rawpFake: { feed(s: string, f: unknown[]): void } }).rawpFake.feed(s, frames);
          requestAnimationFrame(() => requestAnimationFrame(() => {
            void document.body.offsetHeight;
            ok(performance.now() - t0);
          }));
        }),
      { s: SESSION, frames: payload },
    );
    const rendered = await page.evaluate(() => document.querySelectorAll('.row').length);
    // Live append: 4 frames per animation frame, each batch timed from the store's flush to layout.
    const batches: Frame[][] = [];
    for (let i = 0; i < live.length; i += 4) batches.push(live.slice(i, i + 4));
    const durations = await timeLiveBatches(page, batches, { kind: 'feed', session: SESSION });
    const heap_mb = await viewHeapMb(page);
    const dom_nodes = await page.evaluate(() => document.getElementsByTagName('*').length);
    const applied = await page.evaluate(() => (window as unknown as { rawpStore: { transcript: { stats: { applied: number } } } }).rawpStore.transcript.stats.applied);
    process.stderr.write(
      `webview bench: ${frames.length} frames loaded (${applied} applied to the transcript, ${rendered} rows in the DOM), ${live.length} live frames in ${durations.length} batches; ` +
        `append max ${Math.max(...durations).toFixed(1)} ms\n`,
    );
    const result = {
      bench: 'webview',
      frames: frames.length,
      load_ms: Math.round(load_ms),
      append_p95_ms: Number(p95(durations).toFixed(2)),
      heap_mb: Number(heap_mb.toFixed(1)),
      dom_nodes,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await h.close();
  }
  if (process.env.RAWP_BENCH_LIGHT_ONLY === '1') return;
  // The machine's speed beside the heavy figures (as bench:search has it): this machine's speed
  // varies by a factor of two or more from hour to hour, so frame times compare only with it.
  const probe = await machineProbe();
  const heavy = await heavyBench();
  process.stdout.write(`${JSON.stringify({ ...heavy, probe_1t_ms: Number(probe.oneThreadMs.toFixed(1)), probe_2t_ms: Number(probe.twoThreadsMs.toFixed(1)) })}\n`);
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
