// Decision 736: a streamed `rawp convert` moves bytes across the thread boundary instead of copying
// text. The input's chunks go to the conversion thread as ArrayBuffers in the transfer list (the
// main thread keeps nothing of them and never decodes a line), and a frame comes back in bounded
// pieces, so a line near the 64 Mi bound is never whole in the main thread. Measured before: a line
// of 67 million two-byte characters peaked at 1.49 GB (its text copied over as a string, its two
// frames copied back whole); the figures after are in the decision record.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MessagePort } from 'node:worker_threads';
import { convertStream, getConverter } from '../../../src/agents/convert';
import { normalized } from '../../support/normalizedFrames';

const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'native', 'claude-code', 'bash.jsonl');
const OPTIONS = { session_id: 'session-1' };

/** The fixture with its one text delta's text replaced by `text`. */
function captureWithText(text: string): string {
  const capture = readFileSync(FIXTURE, 'utf8');
  const delta = '"delta":{"type":"text_delta","text":"Ran it."}';
  assert.ok(capture.includes(delta));
  return capture.replace(delta, `"delta":{"type":"text_delta","text":${JSON.stringify(text)}}`);
}

async function* chunks(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

/** Streams `text` through the conversion thread: the pieces written, in order. */
async function streamed(text: string, chunkSize = 65536): Promise<string[]> {
  const pieces: string[] = [];
  await convertStream('claude-code', OPTIONS, chunks(Buffer.from(text), chunkSize), { write: (p) => void pieces.push(...p), warn: () => undefined });
  return pieces;
}

function convertedWhole(text: string): string {
  return getConverter('claude-code')!.convert(text.split(/\r?\n/), OPTIONS).frames.map((f) => JSON.stringify(f) + '\n').join('');
}

describe('rawp convert moves bytes between its threads, not text (decision 736)', function () {
  this.timeout(60_000);

  it('every chunk of the input goes to the conversion thread as an ArrayBuffer in the transfer list, detached from the main thread once sent; no message carries text', async () => {
    const capture = captureWithText('héllo — 世界 🎉 '.repeat(2000));
    const sent: Array<{ keys: string[]; bytes?: Buffer; inTransfer?: boolean; detached?: boolean }> = [];
    const post = MessagePort.prototype.postMessage;
    MessagePort.prototype.postMessage = function (this: MessagePort, message: unknown, transfer?: readonly unknown[]) {
      const m = message as Record<string, unknown>;
      const chunk = m.chunk instanceof ArrayBuffer ? m.chunk : undefined;
      const bytes = chunk && Buffer.from(new Uint8Array(chunk).slice());
      post.call(this, message, transfer as never);
      sent.push({ keys: Object.keys(m), bytes, inTransfer: chunk && (transfer ?? []).includes(chunk), detached: chunk && chunk.byteLength === 0 });
    };
    let pieces: string[];
    try {
      pieces = await streamed(capture, 997);
    } finally {
      MessagePort.prototype.postMessage = post;
    }
    // The conversion's messages (Node's own, starting the worker and its stdio, go by ports too).
    const toThread = sent.filter((s) => s.keys.length && s.keys.every((k) => ['chunk', 'lines', 'end', 'written'].includes(k)));
    const input = toThread.filter((s) => s.keys.includes('chunk'));
    assert.ok(input.length >= capture.length / 997, `the input went as chunks (${input.length} of them); messages: ${[...new Set(toThread.map((s) => s.keys.join()))].join(' | ')}`);
    for (const s of input) {
      assert.ok(s.inTransfer, 'the chunk is transferred');
      assert.ok(s.detached, 'the main thread holds nothing of it once sent');
    }
    assert.deepEqual(new Set(toThread.map((s) => s.keys.join())), new Set(['chunk', 'end']), 'no other message went to the thread (no lines)');
    assert.equal(Buffer.concat(input.map((s) => s.bytes!)).toString('utf8'), capture, 'the chunks are the input');
    assert.equal(normalized(pieces.join('')), normalized(convertedWhole(capture)));
  });

  it('a line of 3 Mi characters (two-byte text, surrogate pairs, escapes) comes back in pieces of at most 64 Ki characters, which joined are the frames of the whole conversion', async () => {
    const text = `${'ж'.repeat(1000)}😀"\\\n${'世界🎉'.repeat(1000)}`.repeat(1000).slice(0, 3 << 20);
    const capture = captureWithText(text);
    const pieces = await streamed(capture);
    const longest = Math.max(...pieces.map((p) => p.length));
    assert.ok(longest <= 1 << 16, `the longest piece is ${longest} characters (the text is ${text.length})`);
    assert.equal(normalized(pieces.join('')), normalized(convertedWhole(capture)));
  });
});
