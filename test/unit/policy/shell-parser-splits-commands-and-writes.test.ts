import { describe, expect, it } from 'vitest';
import { loadShellParser } from '../../../src/adapters/shell-parser/syntax.js';

describe('the shell parser', () => {
  it('once loaded, splits a command line into its commands and write targets, nested ones included', async () => {
    const parse = await loadShellParser();
    const script = parse('ls -l > out && echo "$(rm -rf x)"');
    expect(script.syntaxError).toBeNull();
    expect(
      script.parts.map((p) =>
        p.kind === 'command'
          ? p.cmd.args.map((a) => a.value).join(' ')
          : p.kind === 'write'
            ? `> ${p.write.target}`
            : `${p.name}=${p.value.value}`,
      ),
    ).toEqual(['ls -l', '> out', 'echo $(rm -rf x)', 'rm -rf x']);
  });

  it('says where a command line is not valid shell', async () => {
    const parse = await loadShellParser();
    expect(parse('echo "unterminated').syntaxError).not.toBeNull();
  });
});
