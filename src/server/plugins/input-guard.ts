/**
 * Text the database cannot store is refused before any route sees it: a NUL character (U+0000),
 * which PostgreSQL's text refuses outright (error 22021, which surfaced as a 500), and a lone
 * surrogate, which it would store silently as U+FFFD. One hook on the root, so it holds on every
 * route, the identity mount's included: it walks the parsed body, query and path parameters,
 * keys as well as values, and answers 400 `{ message }` naming each field, as the schemas do.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Characters a message cannot show as they are: controls and lone surrogates. */
const UNSHOWABLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
  /[\u0000-\u001f\u007f]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Enough to name what is wrong; a body full of NULs is not worth a longer answer. */
const MAX_PROBLEMS = 5;
const MAX_PATH_LENGTH = 120;

/** Why the database cannot store `text` as it is, or null when it can. */
export function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain a NUL character';
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode (it holds a lone surrogate)';
  return null;
}

/** A key as a message shows it: `x\u0000` for a key holding a NUL. */
const shown = (key: string) =>
  key.replace(UNSHOWABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Arrays and objects as JSON and query strings make them; a raw body's bytes are not text. */
const isContainer = (value: unknown): value is Record<string, unknown> | unknown[] =>
  value !== null &&
  typeof value === 'object' &&
  !ArrayBuffer.isView(value) &&
  !(value instanceof ArrayBuffer);

/** A value met on the walk; its path is worked out only if it has a problem. */
type Item = { value: unknown; key: string | null; parent: Item | null; keyProblem: string | null };

function pathOf(item: Item, part: string): string {
  const keys: string[] = [];
  for (let at: Item | null = item; at?.key != null; at = at.parent) keys.push(at.key);
  if (keys.length === 0) return part;
  let path = shown(keys.pop() as string);
  while (keys.length > 0 && path.length < MAX_PATH_LENGTH)
    path += `.${shown(keys.pop() as string)}`;
  return path.slice(0, MAX_PATH_LENGTH);
}

/**
 * The problems of every string in `value` (keys included), as `path: problem` (`part` names
 * `value` itself), depth first in the order the client wrote them. Iterative and cheap per
 * value: a 1 MB body may hold half a million nested arrays.
 */
export function textProblems(value: unknown, part = 'body'): string[] {
  const problems: string[] = [];
  const stack: Item[] = [{ value, key: null, parent: null, keyProblem: null }];
  while (stack.length > 0 && problems.length < MAX_PROBLEMS) {
    const item = stack.pop() as Item;
    const problem =
      item.keyProblem ?? (typeof item.value === 'string' ? textProblem(item.value) : null);
    if (problem) {
      problems.push(`${pathOf(item, part)}: ${problem}`);
      continue;
    }
    const container = item.value;
    if (!isContainer(container)) continue;
    if (Array.isArray(container)) {
      for (let i = container.length - 1; i >= 0; i--)
        stack.push({ value: container[i], key: String(i), parent: item, keyProblem: null });
      continue;
    }
    const keys = Object.keys(container);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      stack.push({ value: container[key], key, parent: item, keyProblem: textProblem(key) });
    }
  }
  return problems;
}

/** Path parameters by name; a wildcard's (`*`, the rest of a page's path) is `path`. */
function namedParams(params: unknown): unknown {
  if (!isContainer(params) || Array.isArray(params) || !('*' in params)) return params;
  const { '*': path, ...named } = params;
  return { ...named, path };
}

/** The problems of a request's parsed path parameters, query and body, in that order. */
export const requestProblems = (request: FastifyRequest): string[] => [
  ...textProblems(namedParams(request.params), 'params'),
  ...textProblems(request.query, 'query'),
  ...textProblems(request.body, 'body'),
];

export default fp(async function inputGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request, reply) => {
    const problems = requestProblems(request);
    if (problems.length > 0) {
      const message = [...new Set(problems)].slice(0, MAX_PROBLEMS).join('; ');
      return reply.code(400).send({ message });
    }
  });
});
