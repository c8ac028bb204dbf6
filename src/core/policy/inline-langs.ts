// What the interpreter-code scanner (inline-code.ts) looks for, per language: the calls that hand a command to
// the system, the calls that delete a tree or set a mode, and code that builds and runs other code.

export type Lang = 'python' | 'perl' | 'ruby' | 'node' | 'php' | 'lua' | 'r' | 'awk';

export interface LangRules {
  /** Only scanned for `runs`/`rmtree`/`chmod` when the code mentions one of these (a module that can run programs). */
  needs?: RegExp;
  /** Calls that run a shell command or a program with arguments. */
  runs: RegExp;
  /** Calls that delete a tree: checked as `rm -r -f <path>`. */
  rmtree?: RegExp;
  /** Calls that set a mode, checked as `chmod <mode> <path>`. */
  chmod?: RegExp;
  /** In `chmod(mode, files…)` (perl, ruby) the mode comes first. */
  modeFirst?: boolean;
  /** Code that builds and runs other code at run time: cannot be checked. */
  dynamic?: RegExp;
  /** `` `cmd` `` and `qx{cmd}` / `%x(cmd)`: shell commands inline. */
  backticks?: boolean;
}

export const LANGS: Readonly<Record<Lang, LangRules>> = {
  python: {
    needs: /\b(os|subprocess|pty|posix|commands|shutil|sh|plumbum)\b/,
    runs: /\b(?:system|popen[234]?|spawn[lv]?p?e?|exec[lv]p?e?|posix_spawnp?|run|call|check_call|check_output|Popen|getoutput|getstatusoutput)\s*(?=\()/g,
    rmtree: /\brmtree\s*(?=\()/g,
    chmod: /\bl?chmod\s*(?=\()/g,
    dynamic: /\b(exec|eval|compile|__import__|getattr|importlib)\s*[(.]/,
  },
  perl: {
    runs: /\b(?:system|exec)\b(?!\s*=)/g,
    rmtree: /\b(?:rmtree|remove_tree)\s*(?=[(\s'"])/g,
    chmod: /\bchmod\b/g,
    modeFirst: true,
    dynamic: /\beval\s*[^\s{]|\bopen\s*\(?[^;]*(['"]\s*\||\|\s*['"]|['"]-?\|-?['"])/,
    backticks: true,
  },
  ruby: {
    runs: /(?:\b(?:system|exec|spawn)|\bIO\.popen|\bOpen3\.\w+|\bProcess\.spawn|\bPTY\.spawn)(?![\w?!])/g,
    rmtree: /\bFileUtils\.(?:rm_rf|rm_r|remove_dir|remove_entry(?:_secure)?|rmtree)\b/g,
    chmod: /\b(?:FileUtils|File)\.chmod(?:_R)?\b/g,
    modeFirst: true,
    dynamic: /\b(eval|instance_eval|class_eval|send|__send__|public_send)\b/,
    backticks: true,
  },
  node: {
    needs:
      /child_process|\bexeca\b|\bfs\b|(?:require|import)\s*\(\s*(?:[^'"`\s)]|(?<q>['"`])(?:(?!\k<q>).)*\k<q>\s*[^)\s]|`[^`]*\$\{)/,
    runs: /\b(?:exec|execSync|spawn|spawnSync|execFile|execFileSync|fork|execa|execaSync|execaCommand|execaCommandSync)\s*(?=\()/g,
    rmtree: /\b(?:rmSync|rm|rmdirSync|rmdir|remove|removeSync)\s*(?=\([^)]*recursive)/g,
    chmod: /\bchmod(?:Sync)?\s*(?=\()/g,
    dynamic:
      /\b(eval|Function|vm\.\w+)\s*\(|(?:require|import)\s*\(\s*(?:[^'"`\s)]|(?<q>['"`])(?:(?!\k<q>).)*\k<q>\s*[^)\s]|`[^`]*\$\{)|process\.binding|\bglobalThis\b|\bmodule\.constructor\b/,
  },
  php: {
    runs: /\b(?:system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec)\s*(?=\()/g,
    chmod: /\bchmod\s*(?=\()/g,
    dynamic: /\b(eval|assert|create_function|call_user_func(?:_array)?)\s*\(|\$\w+\s*\(/,
    backticks: true,
  },
  lua: {
    runs: /\b(?:os\.execute|io\.popen)\b/g,
    dynamic: /\b(load|loadstring|dofile|loadfile)\s*\(/,
  },
  r: {
    runs: /\b(?:system2?|shell|pipe)\s*(?=\()/g,
    rmtree: /\bunlink\s*(?=\([^)]*recursive\s*=\s*T)/g,
    dynamic: /\beval\s*\(\s*parse/,
  },
  awk: { runs: /\bsystem\s*(?=\()/g },
};

export function langOf(program: string): Lang | null {
  if (/^(python(\d+(\.\d+)*)?|pypy\d?)$/.test(program)) return 'python';
  if (program === 'luajit') return 'lua';
  if (/^(perl|ruby|php|lua)$/.test(program)) return program as Lang;
  if (/^(node|nodejs|bun|deno|tsx|ts-node)$/.test(program)) return 'node';
  if (program === 'Rscript' || program === 'R') return 'r';
  if (/^(awk|gawk|mawk|nawk)$/.test(program)) return 'awk';
  return null;
}

/** Options that carry code, and options that take a value (so that the script operand is found). */
export const CODE_OPTIONS: Readonly<Record<Lang, { code: string[]; withValue: string[] }>> = {
  python: { code: ['-c'], withValue: ['-c', '-m', '-W', '-X', '-Q'] },
  perl: { code: ['-e', '-E'], withValue: ['-e', '-E', '-I', '-M', '-m', '-x'] },
  ruby: { code: ['-e'], withValue: ['-e', '-r', '-I', '-C', '-E'] },
  node: {
    code: ['-e', '--eval', '-p', '--print'],
    withValue: ['-e', '--eval', '-p', '--print', '-r', '--require', '--import'],
  },
  php: { code: ['-r'], withValue: ['-r', '-f', '-c', '-d', '-z', '-t', '-S'] },
  lua: { code: ['-e'], withValue: ['-e', '-l'] },
  r: { code: ['-e', '--expr'], withValue: ['-e', '--expr', '-f', '--file'] },
  awk: {
    code: ['-e', '--source'],
    withValue: ['-e', '--source', '-f', '--file', '-v', '--assign', '-F', '--field-separator', '-i', '--include'],
  },
};
