// The ACP SDK talks over a pair of web streams of JSON-RPC messages. Our AgentProcess already
// splits the child's stdout into JSON lines (and survives garbage lines), so the bridge is small:
// decoded lines in, objects out as lines on stdin. `trace` sees every message both ways, which is
// exactly the capture format `rawp convert --from acp` reads.
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';

export type TraceDirection = 'agent->client' | 'client->agent';

export interface MessagePipe {
  stream: Stream;
  /** Feed one decoded stdout line. */
  deliver(value: unknown): void;
  /** The agent's output ended. */
  close(): void;
}

export function messagePipe(send: (msg: AnyMessage) => boolean, trace?: (dir: TraceDirection, msg: unknown) => void): MessagePipe {
  let controller: ReadableStreamDefaultController<AnyMessage> | undefined;
  let closed = false;
  const readable = new ReadableStream<AnyMessage>({
    start(c) {
      controller = c;
    },
  });
  const writable = new WritableStream<AnyMessage>({
    write(msg) {
      trace?.('client->agent', msg);
      if (!send(msg)) throw new Error('the agent process no longer reads its input');
    },
  });
  return {
    stream: { readable, writable },
    deliver(value) {
      if (closed || typeof value !== 'object' || value === null) return;
      trace?.('agent->client', value);
      controller?.enqueue(value as AnyMessage);
    },
    close() {
      if (closed) return;
      closed = true;
      try {
        controller?.close();
      } catch {
        /* already errored */
      }
    },
  };
}
