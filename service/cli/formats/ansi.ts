// Colours for the text format: on a terminal, unless NO_COLOR says no; FORCE_COLOR says yes anywhere
// (https://no-color.org, https://force-color.org).

export type Style = 'red' | 'yellow' | 'blue' | 'dim' | 'bold' | 'underline';

const CODES: Record<Style, [number, number]> = {
  red: [31, 39],
  yellow: [33, 39],
  blue: [34, 39],
  dim: [2, 22],
  bold: [1, 22],
  underline: [4, 24],
};

export type Paint = (style: Style, text: string) => string;

export function useColour(env: NodeJS.ProcessEnv, isTty: boolean): boolean {
  const force = env['FORCE_COLOR'];
  // An empty FORCE_COLOR counts as unset (force-color.org).
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  return isTty && env['TERM'] !== 'dumb';
}

export function painter(colour: boolean): Paint {
  return colour ? (style, text) => `\x1b[${CODES[style][0]}m${text}\x1b[${CODES[style][1]}m` : (_style, text) => text;
}
