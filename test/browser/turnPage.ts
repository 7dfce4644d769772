// The set-up most Chromium webview tests share: one harness per describe block, and a page attached
// to SESSION that has been given the client's capabilities, the start of turn TURN and a test's own
// frames, rendered (harness.feed waits, bounded, until the view is done with them).
import type { Page } from 'playwright-core';
import type { Frame, PayloadOf } from '../../src/protocol/frameTypes';
import { streamBuilder, type StreamBuilder } from '../fixtures/frames/streamBuilder';
import { feed, startHarness, type Harness } from './harness';
import { SESSION, TURN, clientCaps } from './streams';

/** The frame context of turn TURN. */
export const T = { turn_id: TURN };

/** Starts a harness before the describe block it is called in and closes it after; read `.h` in tests. */
export function harnessPerSuite(): { readonly h: Harness } {
  const box: { h?: Harness } = {};
  before(async () => {
    box.h = await startHarness();
  });
  after(async () => box.h?.close());
  return {
    get h(): Harness {
      if (!box.h) throw new Error('the harness is started in before()');
      return box.h;
    },
  };
}

export interface TurnOptions {
  /** Viewport and colours of the page (Harness.open). */
  open?: Parameters<Harness['open']>[0];
  /** The builder's clock start (Date.now() for questions whose countdown must not have run out). */
  startedAt?: number;
  /** More fields of the turn's session.turn.start (e.g. mode: 'plan'). */
  turnStart?: Partial<PayloadOf<'session.turn.start'>>;
}

/** Opens a page and feeds it capabilities, turn TURN's start and `frames(b)`; returns the page and the builder for more. */
export async function openTurn(h: Harness, frames: (b: StreamBuilder) => Frame[], o: TurnOptions = {}): Promise<{ page: Page; b: StreamBuilder }> {
  const page = await h.open(o.open);
  const b = o.startedAt === undefined ? streamBuilder(SESSION) : streamBuilder(SESSION, o.startedAt);
  await feed(page, SESSION, [clientCaps(b), b.make('session.turn.start', { turn_id: TURN, turn_index: 0, ...o.turnStart }, T), ...frames(b)], true);
  return { page, b };
}
