// The ACP SDK talks over a pair of web streams of JSON-RPC messages. Our AgentProcess already
// splits the child's stdout into JSON lines (and survives garbage lines), so the bridge is small:
// decoded lines in, objects out as lines on stdin. `trace` sees every message both ways, which is
// exactly the capture format `rawp convert --from acp` reads.
//
// The pipe also keeps the ids of our requests still waiting for their answer: when a line the
// reader could not read (over its length limit, or not JSON) visibly starts as the answer to one
// of them, that request is failed instead of waiting forever (decision 551).
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import { responseIdAtStart } from './badLines';

export type TraceDirection = 'agent->client' | 'client->agent';

export interface MessagePipe {
  stream: Stream;
  /** Feed one decoded stdout line. */
  deliver(value: unknown): void;
  /**
   * A stdout line was not read (`reason` as the line reader reports it). When its start shows it
   * was the answer to a request of ours still waiting, that request fails with a JSON-RPC error
   * saying so, and its method is returned; otherwise nothing happens (undefined).
   */
  answerLost(line: string, reason: string): string | undefined;
  /** The agent's output ended. */
  close(): void;
}

type Id = string | number;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is Id => typeof v === 'string' || typeof v === 'number';

export function messagePipe(send: (msg: AnyMessage) => boolean, trace?: (dir: TraceDirection, msg: unknown) => void): MessagePipe {
  let controller: ReadableStreamDefaultController<AnyMessage> | undefined;
  let closed = false;
  let unread = false;
  /** Our requests without an answer yet: id -> method. */
  const waiting = new Map<Id, string>();
  const readable = new ReadableStream<AnyMessage>({
    start(c) {
      controller = c;
    },
    // The SDK stopped reading (its connection closed): later messages are still traced, not queued
    // (enqueue would throw, and the line reader would report each of them as a bad line).
    cancel() {
      unread = true;
      waiting.clear();
    },
  });
  const writable = new WritableStream<AnyMessage>({
    write(msg) {
      trace?.('client->agent', msg);
      if (!send(msg)) throw new Error('the agent process no longer reads its input');
      const m: unknown = msg;
      if (isRecord(m) && typeof m.method === 'string' && isId(m.id)) waiting.set(m.id, m.method);
    },
  });
  return {
    stream: { readable, writable },
    deliver(value) {
      if (closed || typeof value !== 'object' || value === null) return;
      trace?.('agent->client', value);
      // As the SDK reads it: an id without a method is an answer.
      if (isRecord(value) && !('method' in value) && isId(value.id)) waiting.delete(value.id);
      if (!unread) controller?.enqueue(value as AnyMessage);
    },
    answerLost(line, reason) {
      const id = closed || unread ? undefined : responseIdAtStart(line);
      const method = id === undefined ? undefined : waiting.get(id);
      if (id === undefined || method === undefined) return undefined;
      waiting.delete(id);
      // Not traced: the agent did not send this. -32603 is JSON-RPC's "internal error": the
      // failure is ours (we could not read the answer), not the agent's.
      controller?.enqueue({ jsonrpc: '2.0', id, error: { code: -32603, message: `the answer to ${method} could not be read (${reason})` } } as AnyMessage);
      return method;
    },
    close() {
      if (closed) return;
      closed = true;
      waiting.clear();
      try {
        controller?.close();
      } catch {
        /* already errored */
      }
    },
  };
}
