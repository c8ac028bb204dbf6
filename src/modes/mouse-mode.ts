// What the TUI asks of the terminal for the mouse (`[tui] mouse`), and how to take it back.
//   on:          xterm mouse reporting (1000: presses, releases and the wheel) with SGR reports (1006): the wheel
//                scrolls the tab whatever has the keyboard (the App takes the reports out of the keys). The
//                terminal's own selection then takes Shift+drag (Option+drag in iTerm2), as in lazygit or vim.
//   scroll_keys: "alternate scroll" (1007): on the alternate screen the terminal turns the wheel into ↑/↓ keys and
//                keeps its own selection; the wheel then scrolls only outside the goal box (↑/↓ are the box's there).
//   off:         nothing asked; the terminal does what it does by default.
export type MouseSetting = 'on' | 'scroll_keys' | 'off';

const SEQUENCES: Record<MouseSetting, { enable: string; disable: string }> = {
  on: { enable: '\u001b[?1000h\u001b[?1006h', disable: '\u001b[?1006l\u001b[?1000l' },
  scroll_keys: { enable: '\u001b[?1007h', disable: '\u001b[?1007l' },
  off: { enable: '', disable: '' },
};

export function mouseSequences(setting: MouseSetting): { enable: string; disable: string } {
  return SEQUENCES[setting];
}
