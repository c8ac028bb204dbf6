// The esbuild plugins of `npm run build` (scripts/bundle.mjs): what the TUI's dependencies do at every start or
// every frame that agent-collab's bundle does not need them to do.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * React, its reconciler and scheduler pick their build at run time (`process.env.NODE_ENV === 'production'`), so a
 * bundle would hold both: 770 kB of the TUI chunk's 1.7 MB were the development builds, parsed at every start. The
 * TUI always runs the production build (src/ui/load-ui.ts), so that is the only one bundled.
 */
export const reactProductionOnly = {
  name: 'react-production-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/](react|react-reconciler|scheduler)[\\/][^\\/]+\.js$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll("process.env.NODE_ENV === 'production'", 'true'),
      loader: 'js',
    }));
  },
};

/**
 * Ink's output (ink/build/output.js) gets @alcalzone/ansi-tokenize with its styledCharsToString given each line's
 * runs of same-styled cells merged first (src/ui/style-runs.ts says why); everything else is the package's own.
 */
export function inkStyleRuns(root) {
  const styleRuns = path.join(root, 'src/ui/style-runs.ts');
  return {
    name: 'ink-style-runs',
    setup(build) {
      build.onResolve({ filter: /^@alcalzone\/ansi-tokenize$/ }, (args) =>
        /[\\/]ink[\\/]build[\\/]output\.js$/.test(args.importer)
          ? { path: 'ansi-tokenize', namespace: 'ink-style-runs', pluginData: { resolveDir: args.resolveDir } }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'ink-style-runs' }, (args) => ({
        resolveDir: args.pluginData.resolveDir,
        loader: 'js',
        contents: [
          "import { styledCharsToString as cellByCell } from '@alcalzone/ansi-tokenize';",
          `import { mergeStyleRuns } from ${JSON.stringify(styleRuns)};`,
          "export * from '@alcalzone/ansi-tokenize';",
          'export const styledCharsToString = (chars) => cellByCell(mergeStyleRuns(chars));',
        ].join('\n'),
      }));
    },
  };
}
