// Turning conversation entries and file text into screen lines, and the scroll window over them. Pure: the
// components render only the lines inside the window, so a long conversation costs what fits on screen.
import { neutralizeControls } from '../core/terminal-text.js';
import { SCROLL_COMMANDS, type CommandName, type ScrollCommand } from './keymap.js';
import type { ConversationEntry, Tone, Who } from './view-model.js';

export interface Line {
  key: string;
  text: string;
  color?: string;
  dim?: boolean;
  bold?: boolean;
  /** A selected line (the Log tab's event): drawn inverse, which NO_COLOR keeps. */
  inverse?: boolean;
}

const WIDE =
  /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]/;

/** Terminal columns of one character (wide CJK and astral symbols take two). */
export function charWidth(ch: string): number {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp < 32 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (cp > 0xffff) return 2;
  return WIDE.test(ch) ? 2 : 1;
}

export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += charWidth(ch);
  return w;
}

/** Cuts `text` to `width` columns, with an ellipsis when something was cut; control characters are made visible. */
export function truncate(raw: string, width: number): string {
  if (width <= 0) return '';
  const text = neutralizeControls(raw);
  if (textWidth(text) <= width) return text;
  let out = '';
  let w = 0;
  for (const ch of text) {
    const cw = charWidth(ch);
    if (w + cw > width - 1) break;
    out += ch;
    w += cw;
  }
  return `${out}…`;
}

/** Wraps one paragraph (no newlines) to `width` columns, breaking at spaces when it can. */
function wrapParagraph(text: string, width: number): string[] {
  if (textWidth(text) <= width) return [text];
  const out: string[] = [];
  let line = '';
  let w = 0;
  let lastSpace = -1; // index in `line` after the last space
  for (const ch of text) {
    const cw = charWidth(ch);
    if (w + cw > width) {
      if (lastSpace > 0 && ch !== ' ') {
        out.push(line.slice(0, lastSpace).trimEnd());
        line = line.slice(lastSpace);
      } else {
        out.push(line.trimEnd());
        line = '';
      }
      if (ch === ' ' && line === '') {
        w = 0;
        lastSpace = -1;
        continue;
      }
      w = textWidth(line);
      lastSpace = -1;
    }
    line += ch;
    w += cw;
    if (ch === ' ') lastSpace = line.length;
  }
  out.push(line);
  return out;
}

export function wrapText(text: string, width: number): string[] {
  const w = Math.max(1, width);
  const out: string[] = [];
  // Control characters made visible first: an agent's ESC never reaches the terminal, and widths stay true.
  for (const para of neutralizeControls(text).replace(/\t/g, '  ').split('\n')) out.push(...wrapParagraph(para, w));
  return out;
}

const WHO_COLOR: Record<Who, string> = { planner: 'cyan', reviewer: 'magenta', you: 'green', 'agent-collab': 'yellow' };
const TONE_COLOR: Record<Tone, string | undefined> = { info: undefined, good: 'green', warn: 'yellow', error: 'red' };
const STATUS_MARK = { running: '…', ok: '✓', failed: '✗' } as const;
export const MAX_DETAIL_LINES = 40;

/** A header line (null: the entry goes on the one above it) and the wrapped, indented body. */
function block(id: number, header: Line | null, body: string, width: number, color?: string): Line[] {
  const lines: Line[] = header ? [header] : [];
  wrapText(body, width - 2).forEach((t, i) => lines.push({ key: `${id}:${i}`, text: `  ${t}`, color }));
  return lines;
}

function details(id: number, detail: string, width: number): Line[] {
  const all = wrapText(detail, width - 6);
  const shown = all.slice(0, MAX_DETAIL_LINES).map((t, i) => ({ key: `${id}:d${i}`, text: `      ${t}`, dim: true }));
  if (all.length > MAX_DETAIL_LINES)
    shown.push({ key: `${id}:dmore`, text: `      … ${all.length - MAX_DETAIL_LINES} more line(s)`, dim: true });
  return shown;
}

/** The screen lines of one entry. */
export function entryLines(e: ConversationEntry, width: number, expanded: boolean): Line[] {
  const color = WHO_COLOR[e.who];
  const key = `${e.id}`;
  switch (e.kind) {
    case 'message':
    case 'user':
      if (e.cont) return block(e.id, null, e.text, width);
      return block(e.id, { key, text: e.who, color, bold: true }, e.text, width);
    case 'question':
      return block(e.id, { key, text: `${e.who} asks`, color: 'yellow', bold: true }, e.text, width);
    case 'phase':
      return [{ key, text: truncate(`── ${e.text} ──`, width), dim: true }];
    case 'notice':
    case 'error': {
      // Wrapped, never cut: an install hint, a usage limit's reset time or a denial's reason is read whole here.
      const tone = TONE_COLOR[e.tone ?? (e.kind === 'error' ? 'error' : 'info')];
      const mark = e.kind === 'error' ? '✗' : '•';
      return wrapText(e.text, Math.max(1, width - 4)).map((t, i) => ({
        key: i === 0 ? key : `${key}:${i}`,
        text: i === 0 ? `  ${mark} ${t}` : `    ${t}`,
        color: tone,
      }));
    }
    case 'tool':
    case 'command':
    case 'reasoning':
    case 'file': {
      const icon = { tool: '⚙', command: '$', reasoning: '…', file: '✎' }[e.kind];
      const text = e.kind === 'command' ? e.text.replace(/^\$ /, '') : e.text;
      const mark = e.status ? ` ${STATUS_MARK[e.status]}` : '';
      const more = e.detail && !expanded ? ' [x]' : '';
      const head: Line = {
        key,
        text: truncate(`  ${icon} ${e.who}: ${text}`, width - textWidth(mark) - textWidth(more)) + mark + more,
        color: e.status === 'failed' ? 'red' : undefined,
        dim: e.kind === 'reasoning' || e.kind === 'file',
      };
      return expanded && e.detail ? [head, ...details(e.id, e.detail, width)] : [head];
    }
  }
}

/** Markdown-ish file text: headings bold, checked steps green. */
export function fileLines(text: string, width: number, prefix = 'f'): Line[] {
  const out: Line[] = [];
  let i = 0;
  for (const raw of neutralizeControls(text).replace(/\t/g, '  ').split('\n')) {
    const heading = /^#{1,6}\s/.test(raw);
    const checked = /^\s*(\d+\.|[-*])\s+\[[xX]\]/.test(raw);
    for (const t of wrapParagraph(raw, Math.max(1, width))) {
      out.push({
        key: `${prefix}${i++}`,
        text: t,
        bold: heading || undefined,
        color: checked ? 'green' : heading ? 'cyan' : undefined,
      });
    }
  }
  return out;
}

/** Where a scrollable view is: a first line, or following the end (new lines keep it at the bottom). */
export interface Viewport {
  top: number;
  follow: boolean;
}

export const FOLLOW: Viewport = { top: 0, follow: true };
export const TOP: Viewport = { top: 0, follow: false };

export function visibleRange(total: number, height: number, vp: Viewport): { start: number; end: number } {
  const maxTop = Math.max(0, total - height);
  const start = vp.follow ? maxTop : Math.min(Math.max(0, vp.top), maxTop);
  return { start, end: Math.min(total, start + height) };
}

export type { ScrollCommand };

export function isScroll(c: CommandName): c is ScrollCommand {
  return (SCROLL_COMMANDS as readonly string[]).includes(c);
}

export function scrollViewport(vp: Viewport, cmd: ScrollCommand, total: number, height: number): Viewport {
  const maxTop = Math.max(0, total - height);
  const { start } = visibleRange(total, height, vp);
  const page = Math.max(1, height - 1);
  const to = (top: number): Viewport => {
    const t = Math.min(Math.max(0, top), maxTop);
    return { top: t, follow: t >= maxTop };
  };
  switch (cmd) {
    case 'scroll_up':
      return maxTop === 0 ? vp : { ...to(start - 1), follow: false };
    case 'page_up':
      return maxTop === 0 ? vp : { ...to(start - page), follow: false };
    case 'scroll_down':
      return to(start + 1);
    case 'page_down':
      return to(start + page);
    case 'half_page_up':
      return maxTop === 0 ? vp : { ...to(start - Math.max(1, Math.floor(height / 2))), follow: false };
    case 'half_page_down':
      return to(start + Math.max(1, Math.floor(height / 2)));
    case 'scroll_top':
      return { top: 0, follow: false };
    case 'scroll_bottom':
      return { top: maxTop, follow: true };
  }
}

/** Lines one notch of the mouse wheel scrolls (as most terminals and pagers do). */
export const WHEEL_LINES = 3;

export function wheelViewport(vp: Viewport, direction: 1 | -1, total: number, height: number): Viewport {
  let v = vp;
  for (let i = 0; i < WHEEL_LINES; i++)
    v = scrollViewport(v, direction === 1 ? 'scroll_down' : 'scroll_up', total, height);
  return v;
}
