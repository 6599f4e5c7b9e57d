import type { Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';
import { codeSplitting } from './vite-chunks';

type Graph = Record<string, { imports?: string[]; importers?: string[] }>;

/** A module graph as Rolldown's chunking sees it: each module's static imports and importers. */
function contextOf(graph: Graph): Rolldown.ChunkingContext {
  return {
    getModuleInfo: (id: string) =>
      graph[id]
        ? ({
            importedIds: graph[id].imports ?? [],
            importers: graph[id].importers ?? [],
          } as unknown as Rolldown.ModuleInfo)
        : null,
  };
}

const appGroup = () => {
  const group = codeSplitting.groups?.find((g) => g.debugName === 'app');
  if (!group || typeof group.name !== 'function') throw new Error('no app group');
  return group.name;
};

const ROOT = '/repo';
const lib = (name: string) => `${ROOT}/src/client/lib/${name}.ts`;
const REACT = `${ROOT}/node_modules/react/index.js`;
const ZOD = `${ROOT}/node_modules/zod/index.js`;
const BOOT = `${ROOT}/src/client/boot.ts`;

describe("the shared 'app' script file (decision 064)", () => {
  it('takes shared app code whose imports are the app and the framework', () => {
    const ctx = contextOf({
      [lib('format')]: { imports: [lib('texts'), REACT, '\0vite/preload-helper.js'] },
      [lib('texts')]: {},
      [REACT]: {},
    });
    expect(appGroup()(lib('format'), ctx)).toBe('app');
  });

  it('leaves out a module that brings a library beyond the framework, even through another', () => {
    const ctx = contextOf({
      [lib('field')]: { imports: [lib('schema')] },
      [lib('schema')]: { imports: [ZOD] },
      [ZOD]: {},
    });
    expect(appGroup()(lib('field'), ctx)).toBeNull();
    expect(appGroup()(lib('schema'), ctx)).toBeNull();
  });

  it("leaves out what the page's first script imports, so a page still paints with it alone", () => {
    const ctx = contextOf({ [`${ROOT}/src/shared/page-rendering.ts`]: { importers: [BOOT] } });
    expect(appGroup()(`${ROOT}/src/shared/page-rendering.ts`, ctx)).toBeNull();
  });

  it("leaves a feature's own modules and libraries to the automatic split", () => {
    const ctx = contextOf({ [`${ROOT}/src/client/features/catalog/return-path.ts`]: {} });
    expect(appGroup()(`${ROOT}/src/client/features/catalog/return-path.ts`, ctx)).toBeNull();
    expect(appGroup()(REACT, contextOf({ [REACT]: {} }))).toBeNull();
  });

  it('is not fooled by a cycle: two modules importing each other, one of them a form library', () => {
    const ctx = contextOf({
      [lib('a')]: { imports: [lib('b')] },
      [lib('b')]: { imports: [lib('a'), ZOD] },
      [ZOD]: {},
    });
    expect(appGroup()(lib('a'), ctx)).toBeNull();
    expect(appGroup()(lib('b'), ctx)).toBeNull();
  });
});
