// The ACP SDK talks over a pair of web streams of JSON-RPC messages. Our AgentProcess already
// splits the child's stdout into JSON lines (and survives garbage lines), so the bridge is small:
// decoded lines in, objects out as lines on stdin. `trace` sees every message both ways, which is
// exactly the capture format `rawp convert --from acp` reads.
//
// The pipe also keeps the ids of our requests still waiting for their answer: when a line the
// reader could not read (over its length limit, or not JSON) visibly starts as the answer to one
// of them, that request is failed instead of waiting forever (decision 551). Any other line it
// could not read, and any JSON value that is not a message, is answered to the agent with a
// JSON-RPC error, within bounds (decision 556, unreadableReplies.ts).
//
// Nothing reaches the SDK that it would write to the console (decision 716): it console.error's an
// answer to an id it does not wait for with the id as the agent wrote it (escape sequences to the
// operator's terminal, a 5 MB id whole, a line per answer), an answer without an id by its keys,
// and every session/update its own schema refuses. Such answers are dropped here, and said by the
// caller within its warning budget; session/update reaches it under a method of ours
// (SESSION_UPDATE_VIA), which it passes to our handler unparsed: the translator reads it with its
// own schemas and reports what it cannot read, within the same budget (agentLines.ts).
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import { responseIdAtStart } from './badLines';
import { isId, notAMessage, type Id } from './rpcShape';
import { UnreadableReplies, type ReplyLimits } from './unreadableReplies';

export type TraceDirection = 'agent->client' | 'client->agent';

export interface MessagePipe {
  stream: Stream;
  /**
   * Feed one decoded stdout line. A value that is not a JSON-RPC message the SDK reads is kept from
   * it and answered with -32600 (within bounds); the reason is returned, to be shown. An answer to
   * no request of ours waiting for one is dropped, and why is returned (UNASKED_ANSWER …).
   */
  deliver(value: unknown): string | undefined;
  /**
   * A stdout line was not read (`reason` as the line reader reports it). When its start shows it
   * was the answer to a request of ours still waiting, that request fails with a JSON-RPC error
   * saying so, and its method is returned; otherwise nothing happens (undefined).
   */
  answerLost(line: string, reason: string): string | undefined;
  /** A stdout line was not read: `answerLost`, and any line but an answer gets -32700 back (within bounds). */
  unreadable(line: string, reason: string): string | undefined;
  /** The agent's output ended. */
  close(): void;
}

export interface PipeOptions {
  /** Called once, when the first reply to an unreadable line is held back by the limits. */
  onRepliesHeldBack?(): void;
  limits?: ReplyLimits;
  /** Milliseconds, for the limits (tests). */
  now?: () => number;
}

/** The method session/update notifications reach the SDK under: an extension method it does not parse. */
export const SESSION_UPDATE_VIA = '_rawp/session_update';

/** Why an answer was dropped; the text before the colon is its kind (warningBudget.ts). */
export const UNASKED_ANSWER = 'an answer to no request of ours';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function messagePipe(send: (msg: AnyMessage) => boolean, trace?: (dir: TraceDirection, msg: unknown) => void, options: PipeOptions = {}): MessagePipe {
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
  // Written past the SDK (it never sees the agent's line), and traced: the agent really gets it.
  const replies = new UnreadableReplies(
    (msg) => {
      if (closed || unread) return;
      trace?.('client->agent', msg);
      send(msg);
    },
    () => options.onRepliesHeldBack?.(),
    options.limits,
    options.now,
  );
  const answerLost = (line: string, reason: string): string | undefined => {
    const id = closed || unread ? undefined : responseIdAtStart(line);
    const method = id === undefined ? undefined : waiting.get(id);
    if (id === undefined || method === undefined) return undefined;
    waiting.delete(id);
    // Not traced: the agent did not send this. -32603 is JSON-RPC's "internal error": the
    // failure is ours (we could not read the answer), not the agent's.
    controller?.enqueue({ jsonrpc: '2.0', id, error: { code: -32603, message: `the answer to ${method} could not be read (${reason})` } } as AnyMessage);
    return method;
  };
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
      if (closed) return undefined;
      if (typeof value === 'object' && value !== null) trace?.('agent->client', value);
      const why = notAMessage(value);
      if (why !== undefined) {
        if (!unread) replies.value(value, why);
        return why;
      }
      if (unread) return undefined; // the SDK stopped reading: traced, and nothing more
      let message = value as Record<string, unknown>;
      if (!('method' in message)) {
        // As the SDK reads it, an answer: to a request of ours still waiting, or dropped.
        if (!isId(message.id)) return `${UNASKED_ANSWER}: it has no id of one`;
        if (!waiting.delete(message.id)) return `${UNASKED_ANSWER}: its id names none waiting for an answer`;
      } else if (message.method === 'session/update' && !('id' in message)) {
        message = { ...message, method: SESSION_UPDATE_VIA };
      }
      controller?.enqueue(message as AnyMessage);
      return undefined;
    },
    answerLost,
    unreadable(line, reason) {
      const method = answerLost(line, reason);
      if (!closed && !unread) replies.line(line, reason);
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
