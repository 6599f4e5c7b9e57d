/**
 * The built stylesheet keeps a tap's restyle to what it touches (decision 065): no rule whose
 * `:hover`, `:active` or `:focus-within` part sits on a compound that names no class, type, id or
 * attribute. Chromium cannot narrow such a rule, so with one in the sheet every tap restyles the
 * tapped element's whole ancestry. (In the API project because it needs the client built, which
 * the project's global setup does.)
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ASSETS = path.join(import.meta.dirname, '..', '..', 'dist', 'client', 'assets');
/**
 * The states a tap changes on the element and every ancestor. (`:focus` and `:focus-visible`
 * change on the focused element alone: a rule of those with nothing to narrow it costs one.)
 */
const STATE = /:(hover|active|focus-within)\b/;

/** Splits at `sep` where no parenthesis is open. */
function splitTop(text: string, sep: RegExp): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (depth === 0 && sep.test(ch)) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter(Boolean);
}

/** The selectors of a stylesheet whose last compound has a state pseudo-class and nothing else to narrow it. */
function unnarrowedStateSelectors(css: string): string[] {
  const found = new Set<string>();
  for (const [, prelude = ''] of css.matchAll(/([^{};]+)\{/g)) {
    if (prelude.trim().startsWith('@') || !STATE.test(prelude)) continue;
    for (const selector of splitTop(prelude, /,/)) {
      const last = splitTop(selector, /[ >+~]/).at(-1) ?? '';
      // :not() and :has() narrow nothing; what :is() and :where() hold does.
      const compound = last.replace(/:(not|has)\((?:[^()]|\([^()]*\))*\)/g, '');
      if (!STATE.test(compound)) continue;
      const rest = compound.replace(/:(is|where)\(/g, '(').replace(/::?[a-z-]+/g, '');
      if (!/[.#[]|(^|[(,])[a-z]/i.test(rest)) found.add(selector);
    }
  }
  return [...found];
}

describe('the stylesheet', () => {
  it('finds a rule that matches any element on :active or :hover, and passes a narrowed one', () => {
    expect(
      unnarrowedStateSelectors('.menu li>:not(ul):active{color:red}.rating :active:focus{x:y}'),
    ).toEqual(['.menu li>:not(ul):active', '.rating :active:focus']);
    expect(
      unnarrowedStateSelectors('.btn:active{x:y}a:hover{x:y}.x [role=tab]:focus{x:y}'),
    ).toEqual([]);
  });

  it('has no state rule that would restyle a tapped element’s whole ancestry', async () => {
    const sheets = (await readdir(ASSETS)).filter((file) => file.endsWith('.css'));
    expect(sheets.length).toBeGreaterThan(0);
    for (const sheet of sheets) {
      const css = await readFile(path.join(ASSETS, sheet), 'utf8');
      expect(unnarrowedStateSelectors(css), sheet).toEqual([]);
    }
  });
});
