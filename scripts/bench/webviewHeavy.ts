// `npm run bench:webview`, second figure set: a heavy session through the real path (issue 18 item 2).
//
// What is real here:
//   - the host's session layer: a real SessionHost (as src/host builds it for the editor: hub,
//     registry, the session's HistoryBuffer with its byte budget, the journal in a temp state folder,
//     prompt admission), with the scripted agent (test/support/scriptedAdapter) playing 2,000 seeded
//     turns (scripts/bench/heavySession.ts) through the real session engine;
//   - the extension's chat controller (src/extension/chatController.ts, vscode-free): prompts go in
//     as webview `frame` messages, the view is its local hub connection, and every host→webview
//     message (session.attached, replay chunks, live `frames` bursts) is what it posts;
//   - the webview: the real bundle (minified) in real Chromium. Each message is delivered with
//     `window.postMessage` (structured clone, one task per message, as VS Code's webview host does)
//     and reaches the store through the page's transport, which validates it with parseHostMessage
//     exactly as VsCodeTransport does. Not real: the hop from Node to the page (playwright's
//     evaluate carries the batch of messages) and the VS Code workbench around the iframe.
//   - a restart: the host is disposed and a new one restores the session from its journal; a fresh
//     view attaches to it (first paint of the restored session).
// Figures: the view's JS heap after GC (CDP HeapProfiler.collectGarbage + Runtime.getHeapUsage),
// the host's heap growth (process.memoryUsage after gc; run with --expose-gc), first paint (posting
// the first message → first rendered rows), live append p95 (per delivered batch: the store's flush
// to layout), and scrolling top to bottom in steps with p95 frame time: Chromium runs with its frame
// rate unthrottled (no vsync), so the delta between animation frames is what a frame costs.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { buildFrame } from '../../src/protocol/build';
import { webviewMessage, type HostMessage } from '../../src/protocol/webviewMessages';
import type { SessionHost } from '../../src/host/sessionHost';
import { parseValue } from '../../src/protocol/parse';
import type { TurnScript } from '../../test/support/scriptedAdapter';
import { settle, startHarness } from '../../test/browser/harness';
import { controllerFor, harness } from '../../test/unit/host/harness';
import { heavyGenerator } from './heavySession';
import { openBenchPage, p95, timeLiveBatches, viewHeapMb } from './webviewPage';

const FRAMES = Number(process.env.RAWP_HEAVY_FRAMES ?? 100_000);
const TURNS = Number(process.env.RAWP_HEAVY_TURNS ?? 2_000);
const LIVE_TURNS = 16;
const SEED = 18_002;

function hostHeap(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc (npm run bench:webview does)');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Installs the page's postMessage listener: the transport receives what VS Code would post. */
async function wire(page: Page): Promise<void> {
  // tsx (esbuild keepNames) wraps named functions of the evaluated code in __name().
  await page.evaluate('window.__name = (f) => f');
  await page.evaluate(() => {
    const w = window as unknown as { rawpFake: { host(m: unknown): void }; rawpSeen: number };
    w.rawpSeen = 0;
    window.addEventListener('message', (e) => {
      w.rawpSeen++;
      w.rawpFake.host(e.data);
    });
  });
}

/** Posts messages; resolves with ms to the first rendered rows and ms until all were handled and rendered. */
async function deliverAll(page: Page, messages: HostMessage[]): Promise<{ first_paint_ms: number; all_ms: number }> {
  return page.evaluate(
    (msgs) =>
      new Promise<{ first_paint_ms: number; all_ms: number }>((ok) => {
        const w = window as unknown as { rawpSeen: number };
        const start = w.rawpSeen;
        const t0 = performance.now();
        for (const m of msgs) window.postMessage(m, '*');
        let first = -1;
        const check = () => {
          if (first < 0 && document.querySelector('.transcript-inner .row')) {
            void document.body.offsetHeight;
            first = performance.now() - t0;
          }
          if (first >= 0 && w.rawpSeen - start >= msgs.length) {
            requestAnimationFrame(() => requestAnimationFrame(() => {
              void document.body.offsetHeight;
              ok({ first_paint_ms: first, all_ms: performance.now() - t0 });
            }));
          } else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
    JSON.parse(JSON.stringify(messages)) as HostMessage[],
  );
}

/** Scrolls the transcript from the top to the bottom, 0.8 viewport a frame; returns frame deltas. */
async function scrollDown(page: Page): Promise<{ deltas: number[]; steps: number; height: number }> {
  return page.evaluate(async () => {
    const el = document.querySelector('.transcript-scroll') as HTMLElement;
    el.scrollTop = 0;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50))));
    const deltas: number[] = [];
    let last = performance.now();
    let steps = 0;
    const deadline = last + 60_000;
    while (el.scrollTop + el.clientHeight < el.scrollHeight - 1 && steps < 5_000 && performance.now() < deadline) {
      el.scrollTop += Math.max(el.clientHeight * 0.8, 1);
      steps++;
      await new Promise((r) => requestAnimationFrame(() => r(undefined)));
      const now = performance.now();
      deltas.push(now - last);
      last = now;
    }
    return { deltas, steps, height: el.scrollHeight };
  });
}

/** RAWP_HEAVY_PROFILE=dir: a CPU profile of the view around `run` (to find what a missed target costs;
 * RAWP_HEAVY_UNMINIFIED=1 keeps the bundle's names). RAWP_HEAVY_TRACE=dir instead: a Chromium trace
 * (style, layout, paint and script per frame, with the dirty objects of each layout). */
async function profiled<T>(page: Page, name: string, run: () => Promise<T>): Promise<T> {
  const dir = process.env.RAWP_HEAVY_PROFILE;
  const traceDir = process.env.RAWP_HEAVY_TRACE;
  if (traceDir) {
    const browser = page.context().browser()!;
    await browser.startTracing(page, { path: join(traceDir, `${name}.trace.json`), categories: (process.env.RAWP_HEAVY_TRACE_CATEGORIES ?? 'devtools.timeline,disabled-by-default-devtools.timeline,blink,v8.execute').split(',') });
    const out = await run();
    await browser.stopTracing();
    return out;
  }
  if (!dir) return run();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.start');
  const out = await run();
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: unknown };
  writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
  await cdp.detach();
  return out;
}

/** Counts what a session.history in the replay says (if any) and what the view was given. */
function replayInfo(messages: HostMessage[]): { frames: number; truncated: boolean | undefined } {
  let frames = 0;
  let truncated: boolean | undefined;
  for (const m of messages) {
    if (m.kind !== 'frames') continue;
    for (const f of m.payload.frames) {
      frames++;
      if (f.type === 'session.history') truncated = (truncated ?? false) || f.payload.buffer_status.truncated;
    }
  }
  return { frames, truncated };
}

/** Tool calls in a turn script: the engine publishes state changes around each. */
function toolCalls(script: TurnScript): number {
  return script.steps.filter((s) => s.kind === 'tool' || (s.kind === 'emit' && s.event.type === 'tool.invoke.request')).length;
}

async function runTurns(host: SessionHost, send: (f: ReturnType<typeof buildFrame>) => Promise<void>, session_id: string, count: number, prompt: (i: number) => void, published: () => number): Promise<void> {
  for (let i = 0; i < count; i++) {
    prompt(i);
    const ended = new Promise<void>((ok) => {
      const sub = host.onEvent((e) => {
        if (e.kind === 'frame' && e.session_id === session_id && e.frame.type === 'session.turn.end') {
          sub.dispose();
          ok();
        }
      });
    });
    await send(buildFrame('control.prompt.request', { prompt_text: `step ${i}: continue with the next change` }, { session_id }));
    await Promise.race([ended, new Promise((_, no) => setTimeout(() => no(new Error(`turn ${i} did not end (published ${published()})`)), 30_000))]);
  }
}

export async function heavyBench(): Promise<Record<string, unknown>> {
  const started = Date.now();
  const gen = heavyGenerator(SEED);
  const turns: TurnScript[] = [];
  const h = harness();
  const web = await startHarness({ minify: process.env.RAWP_HEAVY_UNMINIFIED !== '1', args: ['--disable-frame-rate-limit', '--disable-gpu-vsync'] });
  try {
    const base = hostHeap();
    const host = h.makeHost({ defaultAgent: 'scripted', scripted: { turns } });
    const controller = controllerFor(host, h);
    // Phase 1: the session's first turns with the view hidden (nothing posted, as VS Code does).
    let posted: HostMessage[] = [];
    let visible = false;
    controller.setView((m) => {
      if (visible) posted.push(m);
    });
    await controller.receive(webviewMessage('ready', { version: 1 }));
    const session_id = controller.activeSessionId;
    assert.ok(session_id, 'a session started');
    let published = 0;
    let invalid = 0;
    host.onEvent((e) => {
      if (e.kind !== 'frame' || e.session_id !== session_id) return;
      published++;
      if (published % 997 === 0 && parseValue(JSON.parse(JSON.stringify(e.frame))).kind !== 'accepted') invalid++;
    });
    const send = (frame: ReturnType<typeof buildFrame>) => controller.receive(webviewMessage('frame', { frame: JSON.parse(JSON.stringify(frame)) as Record<string, unknown> }));
    // Engine frames per turn (turn.start/end, states, usage…): measured on turn 0, then each turn's
    // script is sized so that the session reaches FRAMES frames at its last turn.
    let overhead = 0;
    // The generator's script of `frames` events yields exactly that many agent frames; the engine
    // adds its own per turn, more with every tool call (state changes). Those are measured per
    // (live, tool calls) after every turn, so the last turn lands the session on FRAMES exactly.
    const measured = new Map<string, number>();
    let last: { key: string; planned: number; start: number } | undefined;
    const record = () => {
      if (last) measured.set(last.key, published - last.start - last.planned);
    };
    const plan = (index: number, live: boolean) => {
      record();
      const remainingTurns = TURNS - index;
      const share = Math.round((FRAMES - published) / remainingTurns);
      const draft = gen.turn(index, Math.max(4, share - overhead), { live });
      const key = `${live}:${toolCalls(draft)}`;
      const engine = measured.get(key) ?? measured.get(`false:${toolCalls(draft)}`) ?? overhead;
      const planned = Math.max(4, share - engine);
      const script = planned === Math.max(4, share - overhead) ? draft : gen.turn(index, planned, { live });
      last = { key: `${live}:${toolCalls(script)}`, planned, start: published };
      turns.push(script);
    };
    const bulk = TURNS - LIVE_TURNS;
    const before0 = published;
    await runTurns(host, send, session_id, 1, () => turns.push(gen.turn(0, 40)), () => published);
    overhead = published - before0 - 41;
    await runTurns(host, send, session_id, bulk - 1, (i) => plan(i + 1, false), () => published);
    const bulkFrames = published;
    const t_bulk = Date.now() - started;
    // Phase 2: the view becomes visible and attaches to the live session (replay of the ring).
    const page = await openBenchPage(web);
    await wire(page);
    visible = true;
    controller.switchTo(session_id);
    const attachMsgs = posted;
    posted = [];
    const attach = await profiled(page, 'attach', () => deliverAll(page, attachMsgs));
    await settle(page);
    // Phase 3: the last turns live; the controller's bursts are what the view gets.
    const liveStart = published;
    await runTurns(host, send, session_id, LIVE_TURNS, (i) => plan(bulk + i, true), () => published);
    await new Promise((r) => setImmediate(r));
    // The session's frames up to now; the host's shutdown below adds its session.deleted (restart phase).
    const sessionFrames = published;
    assert.equal(sessionFrames, FRAMES, `the heavy session is exactly ${FRAMES} frames (engine frames per turn: ${JSON.stringify([...measured])})`);
    const liveMsgs = posted;
    posted = [];
    const durations = await profiled(page, 'append', () => timeLiveBatches(page, liveMsgs, { kind: 'post' }));
    const liveFrames = published - liveStart;
    const host_heap = hostHeap() - base;
    const scroll = await profiled(page, 'scroll', () => scrollDown(page));
    const heap_live = await viewHeapMb(page);
    const rowsLive = await page.evaluate(() => (window as unknown as { rawpStore: { transcript: { stats: { applied: number } } } }).rawpStore.transcript.stats.applied);
    const ring = host.log(session_id);
    const ringInfo = { frames: ring?.size ?? 0, mb: (ring?.usedBytes ?? 0) / 1024 / 1024 };
    // Phase 4: restart. The host goes; a new one restores the session from its journal and a
    // fresh view attaches to it.
    await host.dispose();
    const host2 = h.makeHost({ defaultAgent: 'scripted', scripted: { turns: [] } });
    await host2.restoreAll();
    const controller2 = controllerFor(host2, h);
    const restoredMsgs: HostMessage[] = [];
    controller2.setView((m) => restoredMsgs.push(m));
    await controller2.receive(webviewMessage('ready', { version: 1 }));
    const page2 = await openBenchPage(web);
    await wire(page2);
    const restored = await profiled(page2, 'restored', () => deliverAll(page2, restoredMsgs));
    const heap_restored = await viewHeapMb(page2);
    const banner = await page2.evaluate(() => document.body.innerText.includes('may be incomplete'));
    const restoredInfo = replayInfo(restoredMsgs);
    const attachInfo = replayInfo(attachMsgs);
    const errors = [...((page as Page & { rawpErrors?: string[] }).rawpErrors ?? []), ...((page2 as Page & { rawpErrors?: string[] }).rawpErrors ?? [])];
    process.stderr.write(
      `webview heavy: ${sessionFrames} frames over ${TURNS} turns published by the host (${bulkFrames} before the view attached, ${liveFrames} live in ${liveMsgs.length} messages / ${durations.length} batches; ${invalid} invalid in the sampled check) in ${(t_bulk / 1000).toFixed(1)} s; ` +
        `history ring ${ringInfo.frames} frames / ${ringInfo.mb.toFixed(1)} MB; attach replay ${attachInfo.frames} frames (first paint ${attach.first_paint_ms.toFixed(0)} ms, all ${attach.all_ms.toFixed(0)} ms); ` +
        `restored view got ${restoredInfo.frames} frames in ${restoredMsgs.length} messages, session.history truncated=${String(restoredInfo.truncated)}, banner shown=${banner} (first paint ${restored.first_paint_ms.toFixed(0)} ms, all ${restored.all_ms.toFixed(0)} ms); ` +
        `view heap live ${heap_live.toFixed(1)} MB / restored ${heap_restored.toFixed(1)} MB; ${rowsLive} frames applied in the live view; scroll ${scroll.steps} steps over ${scroll.height} px, max ${Math.max(...scroll.deltas).toFixed(1)} ms; append max ${Math.max(...durations).toFixed(1)} ms; page errors ${errors.length}\n`,
    );
    await host2.dispose();
    return {
      bench: 'webview',
      frames: sessionFrames,
      turns: TURNS,
      heap_mb: Number(Math.max(heap_live, heap_restored).toFixed(1)),
      append_p95_ms: Number(p95(durations).toFixed(2)),
      host_heap_mb: Number((host_heap / 1024 / 1024).toFixed(1)),
      first_paint_ms: Math.round(restored.first_paint_ms),
      attach_first_paint_ms: Math.round(attach.first_paint_ms),
      scroll_p95_ms: Number(p95(scroll.deltas).toFixed(2)),
      restored_frames: restoredInfo.frames,
      ring_mb: Number(ringInfo.mb.toFixed(1)),
      truncated: restoredInfo.truncated ?? false,
      seconds: Math.round((Date.now() - started) / 1000),
    };
  } finally {
    await web.close();
    await h.cleanup();
  }
}
