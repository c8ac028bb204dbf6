// The App's keyboard: one listener that turns what the terminal sends into keys, handed over one render apart.
// Ctrl+C always gets through at once; mouse reports are never keys.
import type { Key } from 'ink';
import { useLayoutEffect, useRef, useState } from 'react';
import { keyMatches } from './key-spec.js';
import { bindingOf } from './keymap.js';
import { mouseFilter } from './mouse.js';
import { useKeys, type KeyInfo } from './use-keys.js';

type QueuedKey = [string, Key, KeyInfo];

export interface KeyQueueHandlers {
  /** One key, called once the key before it is on screen. */
  handle: (input: string, key: Key, info: KeyInfo) => void;
  /** Several plain characters in one text are several keys now (false: the goal box or the search line takes them as text). */
  splitBursts: boolean;
  /** The mouse wheel (`[tui] mouse = "on"`): -1 up, 1 down. */
  onWheel: (direction: 1 | -1) => void;
  /** Ctrl+C, whatever has the keyboard and however many keys wait. */
  onQuit: () => void;
}

export function useKeyQueue({ handle, splitBursts, onWheel, onQuit }: KeyQueueHandlers): void {
  // Keys are handled one render apart: a key that opens a dialog or moves a selection is on screen (and in the
  // handlers) before the next key is looked at, however fast keys arrive (paste, key repeat, a busy event loop).
  const queued = useRef<QueuedKey[]>([]);
  const rendering = useRef(false);
  const [, setKeyTick] = useState(0);
  const take = (input: string, key: Key, info: KeyInfo): void => {
    rendering.current = true;
    // Keys that came faster than Ink read them (key repeat, a busy loop) arrive as one text: each is a key of its
    // own, one render apart (line breaks stay text: a paste without bracketed paste).
    const keys = splitBursts ? burstKeys(input, key, info) : [];
    if (keys.length > 1) queued.current.unshift(...keys.slice(1));
    handle(...(keys[0] ?? [input, key, info]));
    setKeyTick((n) => n + 1);
  };
  const mouse = useRef(mouseFilter()).current;
  useKeys((input, key, info) => {
    const report = info.paste ? null : mouse.take(input);
    if (report) {
      if (report.kind === 'wheel') onWheel(report.direction);
      return;
    }
    if (!info.paste && bindingOf('quit').keys.some((k) => keyMatches(k, input, key))) return onQuit();
    if (rendering.current) queued.current.push([input, key, info]);
    else take(input, key, info);
  });
  useLayoutEffect(() => {
    rendering.current = false;
    const next = queued.current.shift();
    if (next) take(...next);
  });
}

/** A text of several plain characters (no paste, no control key, no line break) as one key per character. */
function burstKeys(input: string, key: Key, info: KeyInfo): QueuedKey[] {
  const chars = [...input];
  const plain = !key.ctrl && !key.meta && !key.escape && !key.return && !key.tab && !key.backspace && !key.delete;
  if (info.paste || !plain || chars.length < 2 || /[\r\n]/.test(input)) return [];
  return chars.map((ch) => [ch, key, { ...info, raw: ch }]);
}
