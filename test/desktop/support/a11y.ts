// Accessibility checks for the renderer tests: Chromium's own accessibility tree (through the
// DevTools protocol) for names and labels, and a WCAG 2 contrast check of the rendered text.
import type { Page } from 'playwright-core';

interface AXNode {
  ignored: boolean;
  role?: { value: string };
  name?: { value: string };
  properties?: { name: string; value: { value: unknown } }[];
}

const CONTROL_ROLES = new Set([
  'button',
  'textbox',
  'searchbox',
  'combobox',
  'checkbox',
  'radio',
  'tab',
  'link',
  'switch',
  'slider',
  'spinbutton',
  'listbox',
  'menuitem',
]);

/**
 * Controls without an accessible name as Chromium computes it (a screen reader hears the same),
 * plus form fields the DOM does not label (no <label>, aria-label or aria-labelledby).
 */
export async function unlabelledControls(page: Page): Promise<string[]> {
  const session = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await session.send('Accessibility.getFullAXTree')) as { nodes: AXNode[] };
    const problems = nodes
      .filter((node) => !node.ignored && CONTROL_ROLES.has(node.role?.value ?? '') && !(node.name?.value ?? '').trim())
      .map((node) => `${node.role!.value} without a name`);
    const fields = await page.evaluate(() =>
      [
        ...document.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>(
          'input, select, textarea',
        ),
      ]
        .filter((el) => el.getClientRects().length > 0 || el.type === 'radio' || el.type === 'checkbox')
        .filter(
          (el) => el.labels?.length === 0 && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'),
        )
        .map(
          (el) => `<${el.tagName.toLowerCase()} id="${el.id}" type="${el.getAttribute('type') ?? ''}"> has no label`,
        ),
    );
    return [...problems, ...fields];
  } finally {
    await session.detach();
  }
}

/**
 * Visible text whose contrast with what is behind it is below WCAG 2 AA (4.5:1, or 3:1 for large
 * text). Backgrounds are composited through the ancestors (translucent ones included); disabled
 * controls are exempt, as WCAG says.
 */
export function lowContrastText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type C = { r: number; g: number; b: number; a: number };
    const parse = (value: string): C => {
      const srgb = /color\(srgb ([^)]+)\)/.exec(value);
      const rgb = /rgba?\(([^)]+)\)/.exec(value);
      const channels = (srgb ?? rgb)?.[1];
      const parts =
        channels === undefined
          ? [0, 0, 0, 0]
          : channels
              .split(/[\s,/]+/)
              .filter(Boolean)
              .map(Number);
      const scale = srgb ? 255 : 1;
      return { r: parts[0]! * scale, g: parts[1]! * scale, b: parts[2]! * scale, a: parts[3] ?? 1 };
    };
    const over = (top: C, bottom: C): C => ({
      r: top.r * top.a + bottom.r * (1 - top.a),
      g: top.g * top.a + bottom.g * (1 - top.a),
      b: top.b * top.a + bottom.b * (1 - top.a),
      a: 1,
    });
    const luminance = (c: C) => {
      const lin = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
    };
    const background = (el: Element): C => {
      const layers: C[] = [];
      for (let e: Element | null = el; e; e = e.parentElement) {
        const c = parse(getComputedStyle(e).backgroundColor);
        if (c.a > 0) layers.push(c);
        if (c.a >= 1) break;
      }
      let result: C = { r: 255, g: 255, b: 255, a: 1 };
      if (layers.at(-1)?.a !== 1) result = parse(getComputedStyle(document.body).backgroundColor);
      for (const layer of layers.reverse()) result = over(layer, result);
      return result;
    };
    const problems: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      if (['SCRIPT', 'STYLE', 'OPTION', 'SELECT', 'TEXTAREA', 'INPUT'].includes(el.tagName)) continue;
      const text = [...el.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent)
        .join('')
        .trim();
      if (!text) continue;
      if (el.getClientRects().length === 0 || el.closest('[hidden], [aria-hidden="true"]')) continue;
      if (el.closest('button:disabled, fieldset:disabled')) continue;
      const style = getComputedStyle(el);
      if (style.visibility !== 'visible' || Number(style.opacity) === 0) continue;
      const bg = background(el);
      const fg = over(parse(style.color), bg);
      const [l1, l2] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
      const ratio = (l1! + 0.05) / (l2! + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5))
        problems.push(`"${text.slice(0, 40)}" (${el.tagName.toLowerCase()}.${el.className}) ${ratio.toFixed(2)}:1`);
    }
    return [...new Set(problems)];
  });
}
