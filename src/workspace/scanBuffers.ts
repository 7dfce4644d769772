// The arrays one folder's @-search scan writes (survivors with their match ends, deferred
// matches), kept between keystrokes (issue 18, decision 410). Allocating and zeroing them anew —
// and growing them 4× at a time — cost about a tenth of a keystroke at 460k paths. A scan's
// survivors become the next keystroke's candidates, so two survivor arrays alternate: the one the
// scan reads (the previous keystroke's) and the one it writes.
//
// Recycling is only safe when nothing still reads an array: the survivors a finished scan replaces
// become the spare only when no other scan of this folder is running (one that started earlier may
// still be reading them). A scan that never finishes (dropped without `done`) only stops recycling.

export interface SurvivorArrays {
  ids: Int32Array;
  ends: Uint16Array;
}

export class ScanBuffers {
  private spare: SurvivorArrays | undefined;
  private spareDeferred: Int32Array | undefined;
  private running = 0;

  /** Arrays for a scan that stores at most `survivors` survivors and defers at most `deferred` matches. */
  take(survivors: number, deferred: number): { survivors: SurvivorArrays; deferred: Int32Array } {
    this.running++;
    let s = this.spare;
    this.spare = undefined;
    if (s === undefined || s.ids.length < survivors) s = { ids: new Int32Array(survivors), ends: new Uint16Array(survivors) };
    let d = this.spareDeferred;
    this.spareDeferred = undefined;
    if (d === undefined || d.length < deferred) d = new Int32Array(deferred);
    return { survivors: s, deferred: d };
  }

  /**
   * The scan is over (finished or abandoned): `deferred` is free again, and so are the survivor
   * arrays in `free` that no keystroke will read (the largest is kept).
   */
  done(deferred: Int32Array, ...free: (SurvivorArrays | undefined)[]): void {
    this.running--;
    if (this.running !== 0) return;
    if (this.spareDeferred === undefined || this.spareDeferred.length < deferred.length) this.spareDeferred = deferred;
    for (const f of free) if (f !== undefined && (this.spare === undefined || this.spare.ids.length < f.ids.length)) this.spare = f;
  }
}
