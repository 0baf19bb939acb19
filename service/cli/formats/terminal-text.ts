// Text from a diff made safe for a terminal: a diff may carry escape sequences that would move the
// cursor, rewrite the screen or set the window title; they are shown as U+FFFD instead.

// C0 controls except tab, DEL, and C1 controls (U+0080–U+009F, CSI among them).
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;

export function printable(text: string): string {
  return text.replace(CONTROL, '\ufffd');
}
