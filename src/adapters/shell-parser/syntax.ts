// The shell parser (tree-sitter-bash on web-tree-sitter, WASM) and the walk that turns its tree into
// simple commands and write targets. `loadShellParser()` loads the grammar once; parsing is synchronous after that.
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { fromPackageRoot } from '../../package-root.js';
import type { Node, Parser } from 'web-tree-sitter';
import type { Arg, Cmd, ParseScript, Script, ScriptPart, Stdin, WriteTarget } from '../../core/policy/types.js';
import { argOf, wordValue } from './words.js';

let parser: Parser | null = null;
let loading: Promise<void> | null = null;

/** The shell parser the command policy works on; loads the bash grammar (two .wasm files) on the first call. */
export async function loadShellParser(): Promise<ParseScript> {
  await loadGrammar();
  return parseScript;
}

function loadGrammar(): Promise<void> {
  loading ??= (async () => {
    try {
      // Only V8's baseline WASM compiler: otherwise it recompiles the large grammar in the background, and the process
      // cannot exit until that is done. Parsing one command line is fast either way.
      setFlagsFromString('--liftoff-only');
      // Both .wasm files are resolved as agent-collab's dependencies: in the bundle, web-tree-sitter's own lookup
      // (next to its module) would point into agent-collab's dist/.
      const fromPackage = createRequire(fromPackageRoot('package.json'));
      // Loaded here, not at start-up: web-tree-sitter is ~150 KB of JavaScript that no run needs before its first check.
      const { Language, Parser } = await import('web-tree-sitter');
      await Parser.init({ locateFile: (file: string) => fromPackage.resolve(`web-tree-sitter/${file}`) });
      const grammar = fromPackage.resolve('tree-sitter-bash/tree-sitter-bash.wasm');
      const p = new Parser();
      p.setLanguage(await Language.load(grammar));
      parser = p;
    } catch (err) {
      loading = null;
      const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
      throw new Error(
        `cannot load the shell parser for the command policy (${why}); reinstall agent-collab's dependencies with \`npm install\``,
      );
    }
  })();
  return loading;
}

const OUTPUT_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '>&', '<>']);
const REDIRECT_OPS = new Set([...OUTPUT_OPS, '<', '<&', '>&-', '<&-']);

function parseScript(text: string): Script {
  if (!parser)
    throw new Error('the command policy is not initialized: call `await loadShellParser()` before parsing commands');
  const p = parser;
  let tree = p.parse(text);
  if (!tree) return { parts: [], syntaxError: 'the parser returned nothing' };
  let readWrite = new Set<number>();
  // tree-sitter-bash has no `<>` (open read-write, e.g. `1<>/dev/sda`): read again with each unquoted one spelled
  // `>|` (same length, so every offset stays), a write to the same file, unless that does not parse either.
  if (tree.rootNode.hasError && text.includes('<>')) {
    const alt = readWriteAsOutput(text);
    const again = alt.at.size > 0 ? p.parse(alt.text) : null;
    if (again && !again.rootNode.hasError) {
      tree.delete();
      tree = again;
      readWrite = alt.at;
    } else again?.delete();
  }
  try {
    const parts: ScriptPart[] = [];
    walk(tree.rootNode, text, parts, readWrite);
    return { parts, syntaxError: tree.rootNode.hasError ? describeError(tree.rootNode, text) : null };
  } finally {
    tree.delete();
  }
}

/** `text` with every unquoted `<>` operator spelled `>|`, and where they were. */
export function readWriteAsOutput(text: string): { text: string; at: Set<number> } {
  const at = new Set<number>();
  let out = '';
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
    } else if (c === '\\') {
      out += c + (text[i + 1] ?? '');
      i++;
      continue;
    } else if (quote === '"') {
      if (c === '"') quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '<' && text[i + 1] === '>' && text[i - 1] !== '<') {
      at.add(i);
      out += '>|';
      i++;
      continue;
    }
    out += c;
  }
  return { text: out, at };
}

function describeError(root: Node, text: string): string {
  const bad = firstError(root);
  if (!bad) return 'syntax error';
  if (bad.isMissing) return `syntax error: missing "${bad.type}" at offset ${bad.startIndex}`;
  const near = text.slice(bad.startIndex, bad.startIndex + 20).split('\n')[0];
  return `syntax error near "${near}"`;
}

function firstError(root: Node): Node | null {
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.isError || node.isMissing) return node;
    const children = node.children.filter((c): c is Node => c !== null && (c.hasError || c.isMissing));
    stack.push(...children.reverse());
  }
  return null;
}

/** Depth-first, in source order; iterative so that deeply nested input cannot overflow the stack. */
function walk(root: Node, source: string, parts: ScriptPart[], readWrite: ReadonlySet<number>): void {
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'command') {
      const cmd = simpleCommand(node, source);
      if (cmd.args.length > 0) parts.push({ kind: 'command', cmd, start: node.startIndex });
    } else if (node.type === 'variable_assignment') {
      const assign = assignment(node);
      if (assign) parts.push({ kind: 'assign', ...assign, start: node.startIndex });
    } else if (node.type === 'file_redirect') {
      const write = writeTarget(node, readWrite);
      if (write) parts.push({ kind: 'write', write, start: node.startIndex });
    }
    stack.push(...node.children.filter((c): c is Node => c !== null).reverse());
  }
}

/** `NAME=value` anywhere (alone, before a command, after `export`/`declare`/`local`); arrays count as computed. */
function assignment(node: Node): { name: string; value: Arg } | null {
  const name = node.childForFieldName('name');
  if (!name) return null;
  const base = name.type === 'subscript' ? name.childForFieldName('name') : name;
  const value = node.childForFieldName('value');
  const arg: Arg = value
    ? value.type === 'array'
      ? { value: value.text, dynamic: true, start: value.startIndex, end: value.endIndex }
      : argOf(value)
    : { value: '', dynamic: false, start: node.endIndex, end: node.endIndex };
  return { name: base?.text ?? name.text, value: arg };
}

function simpleCommand(node: Node, source: string): Cmd {
  const name = node.childForFieldName('name');
  const words = name ? [name, ...node.childrenForFieldName('argument')] : [];
  return { args: words.filter((w): w is Node => w !== null).map(argOf), source, stdin: stdinOf(node) };
}

/** A heredoc, here-string or `< file` on the command itself or on the statement it is the body of. */
function stdinOf(command: Node): Stdin | null {
  const redirects = [...command.childrenForFieldName('redirect')];
  const parent = command.parent;
  if (parent?.type === 'redirected_statement' && parent.childForFieldName('body')?.id === command.id) {
    redirects.push(...parent.childrenForFieldName('redirect'));
  }
  let stdin: Stdin | null = null;
  for (const r of redirects) {
    if (!r) continue;
    if (r.type === 'heredoc_redirect') {
      const body = r.namedChildren.find((c) => c?.type === 'heredoc_body');
      const start = r.namedChildren.find((c) => c?.type === 'heredoc_start')?.text ?? '';
      const stripTabs = r.children.some((c) => c?.type === '<<-');
      const raw = body?.text ?? '';
      stdin = {
        kind: 'heredoc',
        text: stripTabs ? raw.replace(/^\t+/gm, '') : raw,
        dynamic: !/^["']|\\/.test(start) && (body?.namedChildren.some((c) => c?.type !== 'heredoc_content') ?? false),
      };
    } else if (r.type === 'herestring_redirect') {
      const word = r.namedChildren.find((c) => c && c.type !== 'file_descriptor');
      const v = word ? wordValue(word) : { value: '', dynamic: false };
      stdin = { kind: 'herestring', text: v.value, dynamic: v.dynamic };
    } else if (r.type === 'file_redirect' && operatorOf(r) === '<' && !r.childForFieldName('descriptor')) {
      const file = r.childForFieldName('destination');
      stdin = { kind: 'file', dynamic: file ? wordValue(file).dynamic : true };
    }
  }
  return stdin;
}

function operatorNode(redirect: Node): Node | null {
  return redirect.children.find((c): c is Node => c !== null && !c.isNamed && REDIRECT_OPS.has(c.type)) ?? null;
}

function operatorOf(redirect: Node): string | null {
  return operatorNode(redirect)?.type ?? null;
}

/** `readWrite`: where a `<>` was read as `>|` (parseScript). */
function writeTarget(node: Node, readWrite: ReadonlySet<number>): WriteTarget | null {
  const opNode = operatorNode(node);
  const op = opNode && readWrite.has(opNode.startIndex) ? '<>' : (opNode?.type ?? null);
  if (!op || !OUTPUT_OPS.has(op)) return null;
  const dest = node.childForFieldName('destination');
  if (!dest) return null;
  const v = wordValue(dest);
  // `2>&1`, `>&-`: duplicating or closing a file descriptor, not a file.
  if ((op === '>&' || op === '<&') && /^(\d+|-)$/.test(v.value)) return null;
  const fd = node.childForFieldName('descriptor')?.text ?? '';
  return { op, target: v.value, dynamic: v.dynamic, text: `${fd}${op} ${dest.text}` };
}
