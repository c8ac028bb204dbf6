// Reads a `git diff` patch: per file its new path, whether it was added (or renamed/copied to), and its added
// lines with their numbers in the new file. Binary patches contribute their file, never their data.

export interface PatchFile {
  path: string;
  /** A new file, or the target of a rename or copy. */
  added: boolean;
  deleted: boolean;
  addedLines: Array<{ n: number; text: string }>;
  /** Git shows no lines for it (`GIT binary patch` or `Binary files … differ`): its data is only in the blob. */
  binary: boolean;
  /** The new blob's id from the `index <old>..<new>` line (full with `--binary` or `--full-index`), if any. */
  newBlob: string | null;
}

const utf8 = new TextEncoder();

const C_ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** Undoes git's C-style quoting of a path (`"a/caf\303\251 menu.txt"`); unquoted paths come back as they are. */
export function unquotePath(text: string): string {
  if (!text.startsWith('"') || !text.endsWith('"') || text.length < 2) return text;
  const bytes: number[] = [];
  const body = text.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const ch = body.charAt(i);
    if (ch !== '\\') {
      bytes.push(...utf8.encode(ch));
      continue;
    }
    const next = body.charAt(i + 1);
    const octal = /^[0-7]{3}/.exec(body.slice(i + 1, i + 4));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 3;
    } else {
      bytes.push(C_ESCAPES[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

function stripPrefix(p: string, prefix: string): string {
  return p.startsWith(prefix) ? p.slice(prefix.length) : p;
}

/** The new path from `diff --git a/X b/Y`: exact when quoted or when both sides are equal (not a rename). */
function pathFromHeader(rest: string): string {
  if (rest.endsWith('"')) {
    const start = rest.lastIndexOf(' "');
    if (start >= 0) return stripPrefix(unquotePath(rest.slice(start + 1)), 'b/');
  }
  const n = (rest.length - 5) / 2; // "a/" + X + " b/" + X
  if (Number.isInteger(n) && rest.startsWith('a/') && rest.slice(2, 2 + n) === rest.slice(n + 5))
    return rest.slice(n + 5);
  const b = rest.lastIndexOf(' b/');
  return b >= 0 ? rest.slice(b + 3) : rest;
}

export function parsePatch(patch: string): PatchFile[] {
  const files: PatchFile[] = [];
  let file: PatchFile | null = null;
  // Lines still owed by the current hunk (old side, new side); outside a hunk both are 0.
  let oldLeft = 0;
  let newLeft = 0;
  let newLine = 0;
  for (const raw of patch.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (file && (oldLeft > 0 || newLeft > 0)) {
      const tag = line.charAt(0);
      if (tag === '+') {
        file.addedLines.push({ n: newLine++, text: line.slice(1) });
        newLeft--;
        continue;
      }
      if (tag === '-') {
        oldLeft--;
        continue;
      }
      if (tag === ' ' || line === '') {
        oldLeft--;
        newLeft--;
        newLine++;
        continue;
      }
      if (tag === '\\') continue; // "\ No newline at end of file"
      oldLeft = newLeft = 0; // malformed hunk: fall through to header parsing
    }
    if (line.startsWith('diff --git ')) {
      file = {
        path: pathFromHeader(line.slice('diff --git '.length)),
        added: false,
        deleted: false,
        addedLines: [],
        binary: false,
        newBlob: null,
      };
      files.push(file);
      continue;
    }
    if (!file) continue;
    const hunk = /^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (hunk) {
      oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
      newLine = Number(hunk[2]);
      newLeft = hunk[3] === undefined ? 1 : Number(hunk[3]);
    } else if (line.startsWith('new file mode ')) file.added = true;
    else if (line.startsWith('deleted file mode ')) file.deleted = true;
    else if (line === 'GIT binary patch' || (line.startsWith('Binary files ') && line.endsWith(' differ')))
      file.binary = true;
    else if (line.startsWith('index ')) {
      const blob = /^index [0-9a-f]+\.\.([0-9a-f]+)/.exec(line)?.[1];
      if (blob && !/^0+$/.test(blob)) file.newBlob = blob;
    } else if (line.startsWith('rename to ') || line.startsWith('copy to ')) {
      file.path = unquotePath(line.slice(line.indexOf(' to ') + 4));
      file.added = true;
    } else if (line.startsWith('+++ ')) {
      const target = line.slice(4);
      if (target !== '/dev/null') file.path = stripPrefix(unquotePath(target.replace(/\t$/, '')), 'b/');
    }
  }
  return files;
}
