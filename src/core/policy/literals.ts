// Reading the arguments of a call in interpreter code (`os.system("rm -rf /")`, `system 'rm', '-rf', '/'`):
// string literals and lists of them are known; anything else (a variable, an f-string, a concatenation) is not.

export type Item =
  | { kind: 'string'; text: string; dynamic: boolean }
  | { kind: 'list'; items: Array<{ text: string; dynamic: boolean }> }
  | { kind: 'other'; text: string };

/** The string literal starting at `pos` (python prefixes r/b/f/u allowed), or null when `pos` is not at one. */
export function readString(code: string, pos: number): { text: string; dynamic: boolean; end: number } | null {
  const m = /^([rRbBuUfF]{0,2})('''|"""|'|"|`)/.exec(code.slice(pos));
  if (!m) return null;
  const prefix = m[1]!.toLowerCase();
  const quote = m[2]!;
  let i = pos + m[0].length;
  let text = '';
  while (i < code.length && !code.startsWith(quote, i)) {
    if (code[i] === '\\' && !prefix.includes('r') && i + 1 < code.length) {
      const c = code[i + 1]!;
      text += c === 'n' ? '\n' : c === 't' ? '\t' : c;
      i += 2;
      continue;
    }
    text += code[i];
    i++;
  }
  if (i >= code.length) return null;
  // Interpolation: f-strings; "$x", "#{x}", `${x}` in perl, ruby, php and JavaScript templates.
  const dynamic =
    (prefix.includes('f') && /\{[^{]/.test(text)) ||
    (quote !== "'" && quote !== "'''" && /\$\{|#\{|\$[A-Za-z_@{]/.test(text));
  return { text, dynamic, end: i + quote.length };
}

/** The end of the expression starting at `pos`: a separator matching `stop` at depth 0, or an unmatched closer. */
function skipExpression(code: string, pos: number, stop: RegExp): number {
  let depth = 0;
  let i = pos;
  while (i < code.length) {
    const c = code[i]!;
    const s = /['"`]/.test(c) ? readString(code, i) : null;
    if (s) {
      i = s.end;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) return i;
      depth--;
    } else if (depth === 0 && stop.test(c)) return i;
    i++;
  }
  return i;
}

function skipSpace(code: string, pos: number): number {
  let i = pos;
  while (i < code.length && /[ \t]/.test(code[i]!)) i++;
  return i;
}

/** One argument at `pos`: a string, a `[...]` list of strings, or anything else. */
function readItem(code: string, pos: number, stop: RegExp): { item: Item; end: number } {
  const at = skipSpace(code, pos);
  const s = readString(code, at);
  if (s) {
    const after = skipSpace(code, s.end);
    if (after >= code.length || stop.test(code[after]!) || code[after] === ')' || code[after] === ']')
      return { item: { kind: 'string', text: s.text, dynamic: s.dynamic }, end: after };
  }
  if (code[at] === '[') {
    const items: Array<{ text: string; dynamic: boolean }> = [];
    let i = at + 1;
    let known = true;
    while (i < code.length && code[skipSpace(code, i)] !== ']') {
      const inner = readItem(code, i, /,/);
      if (inner.item.kind === 'string') items.push(inner.item);
      else known = false;
      if (code[inner.end] !== ',') {
        i = inner.end;
        break;
      }
      i = inner.end + 1;
    }
    const close = skipSpace(code, i);
    if (known && code[close] === ']') return { item: { kind: 'list', items }, end: skipSpace(code, close + 1) };
  }
  const end = skipExpression(code, at, stop);
  return { item: { kind: 'other', text: code.slice(at, end).trim() }, end };
}

/**
 * The arguments of the call whose name ends right before `pos`: inside `( … )`, or without parentheses up to the
 * end of the statement (`system "ls"` in perl and ruby).
 */
export function readArguments(code: string, pos: number): Item[] {
  let i = skipSpace(code, pos);
  const parens = code[i] === '(';
  if (parens) i++;
  const stop = parens ? /,/ : /[,;\n]/;
  const items: Item[] = [];
  while (i < code.length) {
    i = skipSpace(code, i);
    if (parens ? code[i] === ')' : /[;\n)]/.test(code[i] ?? ';')) break;
    const { item, end } = readItem(code, i, stop);
    items.push(item);
    if (code[end] !== ',') break;
    i = end + 1;
  }
  return items;
}

/** `code` with the inside of every string literal blanked (same length), so that call names are not found in text. */
export function maskStrings(code: string): string {
  let out = '';
  let i = 0;
  while (i < code.length) {
    const s = /['"]/.test(code[i]!) ? readString(code, i) : null;
    if (s) {
      out += code[i] + ' '.repeat(s.end - i - 2) + code[s.end - 1];
      i = s.end;
    } else out += code[i++];
  }
  return out;
}

/** Words as one shell command line, each quoted when it needs to be. */
export function shellLine(words: ReadonlyArray<{ text: string }>): string {
  return words.map((w) => (/^[\w./=:@%+,-]+$/.test(w.text) ? w.text : `'${w.text.replace(/'/g, `'\\''`)}'`)).join(' ');
}
