// agent-collab loads zod's small functional API (`zod/mini`) only: the classic chained API is ~750 KB in the bundle
// and about 50 ms of every start. One import of 'zod' (or 'zod/v4', …) anywhere in src/ would bring all of it back.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** The one file that imports zod: it re-exports zod/mini with English issue messages from zod/locales. */
const ZOD_ENTRY = 'src/persistence/zod.ts';
const ALLOWED = new Set(['zod/mini', 'zod/locales']);

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && /\.(ts|tsx|mts|cts)$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

/** Every `import … from`, `export … from`, `import()` and `require()` of a zod module in `text`. */
function zodImports(text: string): string[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles.map((f) => f.fileName).filter((name) => name === 'zod' || name.startsWith('zod/'));
}

describe('zod imports', () => {
  it('finds a classic import when there is one (the check itself works)', () => {
    expect(zodImports(`import { z } from 'zod';\nimport * as m from "zod/mini";\nexport { x } from 'zod/v4';\nawait import('zod/v4/classic');`)).toEqual([
      'zod',
      'zod/mini',
      'zod/v4',
      'zod/v4/classic',
    ]);
  });

  it('src/ imports zod only as zod/mini, through src/persistence/zod.ts', async () => {
    const files = await sourceFiles(path.join(ROOT, 'src'));
    expect(files.length).toBeGreaterThan(50);
    const offenders: string[] = [];
    let miniImports = 0;
    for (const file of files) {
      const rel = path.relative(ROOT, file);
      for (const name of zodImports(await readFile(file, 'utf8'))) {
        if (rel === ZOD_ENTRY && name === 'zod/mini') miniImports++;
        if (rel !== ZOD_ENTRY || !ALLOWED.has(name)) offenders.push(`${rel} imports '${name}'; use import * as z from '${ZOD_ENTRY}'`);
      }
    }
    expect(offenders).toEqual([]);
    expect(miniImports).toBeGreaterThan(0);
  });

  // The classic API costs ~750 KB; so does zod/mini used the wrong way (see src/persistence/zod.ts). Used right: ~65 KB.
  it('the bundled CLI holds no module of the classic API, and little of zod at all', async () => {
    const result = await build({
      absWorkingDir: ROOT,
      entryPoints: ['src/cli.ts'],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      outdir: 'dist-metafile-only',
      external: ['react-devtools-core'],
      tsconfig: 'tsconfig.build.json',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const isZod = (input: string) => input.includes('node_modules/zod/');
    const zodModules = Object.keys(result.metafile.inputs).filter(isZod);
    expect(zodModules.some((m) => m.includes('/zod/v4/mini/'))).toBe(true);
    expect(zodModules.filter((m) => m.includes('/zod/v4/classic/'))).toEqual([]);
    let zodBytes = 0;
    for (const output of Object.values(result.metafile.outputs)) {
      for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) if (isZod(input)) zodBytes += bytesInOutput;
    }
    expect(zodBytes).toBeGreaterThan(10_000);
    expect(zodBytes).toBeLessThan(150_000);
  }, 60_000);
});
