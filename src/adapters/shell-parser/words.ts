// The value of one shell word from its tree-sitter node: quotes removed, escapes decoded, or marked dynamic
// when it depends on an expansion.
import type { Node } from 'web-tree-sitter';
import type { Arg } from '../../core/policy/types.js';

const EXPANSIONS = new Set([
  'simple_expansion',
  'expansion',
  'command_substitution',
  'process_substitution',
  'arithmetic_expansion',
]);

interface Value {
  value: string;
  dynamic: boolean;
}

/** Backslash escapes outside quotes: `\x` is `x`, backslash-newline disappears. */
function unescapeBare(text: string): string {
  return text.replace(/\\(\n|.)/gs, (_, c: string) => (c === '\n' ? '' : c));
}

/** Inside double quotes a backslash escapes only `$`, `` ` ``, `"`, `\` and newline. */
function unescapeDouble(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === '\n' ? '' : c));
}

const C_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** `$'…'` (ANSI-C quoting): `\n`, `\x72`, `\162`, `\u0072`, `\cX`… */
export function decodeAnsiC(body: string): string {
  return body.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (all, esc: string) => {
      const head = esc[0]!;
      if (head === 'x' || head === 'u' || head === 'U') {
        const code = parseInt(esc.slice(1), 16);
        return code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
      }
      if (/[0-7]/.test(head)) return String.fromCharCode(parseInt(esc, 8) & 0xff);
      if (head === 'c' && esc.length === 2) return String.fromCharCode(esc.charCodeAt(1) & 0x1f);
      return C_ESCAPES[esc] ?? all;
    },
  );
}

/** Text of `node` with expansion children kept raw (and marking the value dynamic); `literal` decodes the rest. */
function spliced(node: Node, from: number, to: number, literal: (s: string) => string): Value {
  let value = '';
  let dynamic = false;
  let pos = from;
  for (const child of node.namedChildren) {
    if (!child || !EXPANSIONS.has(child.type)) continue;
    value += literal(sliceOf(node, pos, child.startIndex)) + child.text;
    dynamic = true;
    pos = child.endIndex;
  }
  value += literal(sliceOf(node, pos, to));
  return { value, dynamic };
}

/** node.text is copied out of the source on every access: a long word with many parts would be quadratic. */
const texts = new WeakMap<Node, string>();

function sliceOf(node: Node, from: number, to: number): string {
  let text = texts.get(node);
  if (text === undefined) {
    text = node.text;
    texts.set(node, text);
  }
  return text.slice(from - node.startIndex, to - node.startIndex);
}

export function wordValue(node: Node): Value {
  switch (node.type) {
    case 'word':
    case 'number':
    case 'file_descriptor':
    case 'variable_name':
      return { value: unescapeBare(node.text), dynamic: false };
    case 'raw_string':
      return { value: node.text.slice(1, -1), dynamic: false };
    case 'ansi_c_string':
      return { value: decodeAnsiC(node.text.slice(2, -1)), dynamic: false };
    case 'string':
      return spliced(node, node.startIndex + 1, node.endIndex - 1, unescapeDouble);
    case 'translated_string': {
      const inner = node.namedChildren[0];
      return inner ? wordValue(inner) : { value: '', dynamic: false };
    }
    case 'command_name': {
      const inner = node.namedChildren[0];
      return inner ? wordValue(inner) : { value: node.text, dynamic: true };
    }
    case 'concatenation': {
      let value = '';
      let dynamic = false;
      let pos = node.startIndex;
      for (const child of node.namedChildren) {
        if (!child) continue;
        value += unescapeBare(sliceOf(node, pos, child.startIndex));
        const v = wordValue(child);
        value += v.value;
        dynamic ||= v.dynamic;
        pos = child.endIndex;
      }
      value += unescapeBare(sliceOf(node, pos, node.endIndex));
      return { value, dynamic };
    }
    case 'brace_expression':
    case 'extglob_pattern':
      return { value: node.text, dynamic: false };
    default:
      return { value: node.text, dynamic: true };
  }
}

/** The unquoted text of a bare word or concatenation, escaped characters blanked out. */
function bareText(node: Node): string {
  if (node.type === 'command_name') return node.namedChildren[0] ? bareText(node.namedChildren[0]) : '';
  if (node.type === 'word') return node.text.replace(/\\(\n|.)/gs, '_');
  if (node.type !== 'concatenation') return '';
  const slice = (from: number, to: number) => sliceOf(node, from, to);
  let text = '';
  let pos = node.startIndex;
  for (const child of node.namedChildren) {
    if (!child) continue;
    text += slice(pos, child.startIndex).replace(/\\(\n|.)/gs, '_');
    text += child.type === 'word' ? child.text.replace(/\\(\n|.)/gs, '_') : '_';
    pos = child.endIndex;
  }
  return text + slice(pos, node.endIndex).replace(/\\(\n|.)/gs, '_');
}

/** Unquoted `*`, `?`, `[…]` or `{a,b}` / `{1..3}`: the shell expands the word into file names or several words. */
const GLOB = /[*?]|\[[^\]]*\]|\{[^{}]*(?:,|\.\.)[^{}]*\}/;

export function argOf(node: Node): Arg {
  const arg: Arg = { ...wordValue(node), start: node.startIndex, end: node.endIndex };
  if (node.type === 'brace_expression' || node.type === 'extglob_pattern' || GLOB.test(bareText(node))) {
    arg.dynamic = true;
    arg.glob = true;
  }
  return arg;
}
