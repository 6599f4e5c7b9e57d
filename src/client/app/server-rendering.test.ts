import { describe, expect, it } from 'vitest';
import { isServerRendered, type ServerState, serializeState } from './server-rendering';

const stateWith = (text: string): ServerState => ({
  router: { loaderData: { '0-1': { text } }, actionData: null },
  queries: { mutations: [], queries: [] },
});

describe('serializeState', () => {
  it('cannot end its script element or open a comment, whatever a seller wrote', () => {
    const hostile = '</script><script>alert(1)</script><!-- & \u2028\u2029 >';
    const json = serializeState(stateWith(hostile));
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(stateWith(hostile));
  });
});

describe('isServerRendered', () => {
  const at = (path: string) => isServerRendered(new URL(path, 'http://localhost'));

  it('renders the public pages on the server', () => {
    for (const path of [
      '/',
      '/category/01',
      '/blog',
      '/signin?from=%2Fdashboard',
      '/signup/seller',
    ])
      expect(at(path), path).toBe(true);
  });

  it('leaves pages behind sign-in, and the return from Google, to the browser', () => {
    for (const path of ['/dashboard', '/dashboard/myorders', '/signin?social=user'])
      expect(at(path), path).toBe(false);
  });
});
