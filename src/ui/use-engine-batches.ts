// The engine's outputs reach the App in batches, so a fast stream costs one render per frame, not per line.
import { useEffect } from 'react';
import { PendingOutputs } from './pending-outputs.js';
import type { EngineLike } from './ports.js';
import type { ViewAction } from './view-model.js';

/** What the engine publishes is applied at most this often (one React render per batch, however fast it streams). */
const BATCH_MS = 40;
/**
 * While an agent floods the screen (a batch had FLOOD_OUTPUTS or more outputs), batches come at most this often:
 * a frame costs several MB of short-lived objects in Ink, and nobody reads a wall of text scrolling at 25 fps.
 */
const FLOOD_BATCH_MS = 100;
const FLOOD_OUTPUTS = 200;

/**
 * Collects what the engine publishes (folded as it arrives, see PendingOutputs) and hands it over in batches: at
 * most one per BATCH_MS, or per FLOOD_BATCH_MS after a flooded batch, and never held longer. A batch is applied
 * from setImmediate, after the event loop has read the terminal: a key that arrived meanwhile is handled first.
 */
export function useEngineBatches(
  engine: EngineLike,
  maxEntries: number,
  apply: (actions: ViewAction[]) => void,
  onSubscribed: () => void,
): void {
  useEffect(() => {
    const pending = new PendingOutputs(maxEntries);
    let timer: NodeJS.Timeout | null = null;
    let immediate: NodeJS.Immediate | null = null;
    let last = 0;
    let gap = BATCH_MS;
    const flush = (): void => {
      immediate = null;
      last = performance.now();
      gap = pending.count >= FLOOD_OUTPUTS ? FLOOD_BATCH_MS : BATCH_MS;
      if (!pending.empty) apply(pending.take());
    };
    const later = (): void => {
      timer = null;
      immediate = setImmediate(flush);
    };
    const off = engine.subscribe((out) => {
      pending.push(out);
      if (timer || immediate) return;
      const wait = gap - (performance.now() - last);
      if (wait > 0) timer = setTimeout(later, wait);
      else immediate = setImmediate(flush);
    });
    onSubscribed();
    return () => {
      off();
      if (timer) clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
    };
    // Subscribes once per engine; the callbacks are read at mount on purpose.
  }, [engine]);
}
