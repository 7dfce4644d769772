// The scratch of an OpenAI-compatible agent test: a workspace of files big enough to outgrow a
// small context window (big-1.txt … big-N.txt, 8 KB each), and the agent opened on a recording
// host that allows every permission ask.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { OpenAIAdapter, type OpenAIAdapterOptions } from '../../src/agents/openai/adapter';
import { RecordingHost } from './recordingHost';

export interface BigFilesWorkspace {
  dir: string;
  ws: string;
  remove(): void;
}

export function bigFilesWorkspace(prefix: string, files: number): BigFilesWorkspace {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const ws = path.join(dir, 'ws');
  mkdirSync(ws);
  for (let k = 1; k <= files; k++) writeFileSync(path.join(ws, `big-${k}.txt`), `file ${k} line of some length to read back\n`.repeat(200));
  return { dir, ws, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The agent started on a host that allows every ask; `started`: what its start published. */
export async function openOpenAI(ws: string, options: OpenAIAdapterOptions) {
  const adapter = new OpenAIAdapter(options);
  const host = new RecordingHost(ws, () => ({ kind: 'response', selected_value: 'allow_once' }));
  const started = await host.open(adapter);
  return { host, adapter, started };
}
