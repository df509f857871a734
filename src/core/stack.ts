/**
 * Stack traces in terms of the TypeScript sources. The build ships a source map beside each bundle
 * (dist/cli.cjs.map, without the sources' text); only `--debug` reporting an internal error reads
 * one, so no other run pays for it. A frame of a bundle becomes `src/core/program.ts:123:7`; a
 * frame that no map covers stays as it was.
 */
import { builtinModule } from '../base/builtin.js';

type SourceMap = InstanceType<typeof import('node:module').SourceMap>;

/** A frame's position in one of the bundles: the bundle's path, then line and column (1-based). */
const BUNDLE_FRAME = /((?:[A-Za-z]:)?[^\s()]*[\\/]dist[\\/][\w-]+\.cjs):(\d+):(\d+)/;

export function mappedStack(stack: string): string {
  const maps = new Map<string, SourceMap | undefined>();
  return stack
    .split('\n')
    .map((line) => {
      const frame = BUNDLE_FRAME.exec(line);
      if (frame === null) return line;
      const [position, file, lineText, columnText] = frame as unknown as [string, string, string, string];
      if (!maps.has(file)) maps.set(file, readMap(file));
      const map = maps.get(file);
      if (map === undefined) return line;
      // bin/loopsctl.js runs each bundle wrapped as a CommonJS module, which shifts its first line.
      const column = Number(columnText) - 1 - (lineText === '1' ? wrapperLength() : 0);
      const entry = map.findEntry(Number(lineText) - 1, column) as { originalSource?: string; originalLine?: number; originalColumn?: number };
      if (entry.originalSource === undefined) return line;
      const source = entry.originalSource.replace(/^(?:\.\.\/)+/, '');
      return line.replace(position, `${source}:${entry.originalLine! + 1}:${entry.originalColumn! + 1}`);
    })
    .join('\n');
}

function readMap(bundle: string): SourceMap | undefined {
  const fs = builtinModule('node:fs');
  // The npm package keeps the maps compressed (src/build/release.mjs).
  const text = (): string => {
    try {
      return fs.readFileSync(`${bundle}.map`, 'utf8');
    } catch {
      return builtinModule('node:zlib')
        .brotliDecompressSync(fs.readFileSync(`${bundle}.map.br`))
        .toString('utf8');
    }
  };
  try {
    const { SourceMap } = builtinModule('node:module');
    return new SourceMap(JSON.parse(text()));
  } catch {
    return undefined;
  }
}

function wrapperLength(): number {
  return (builtinModule('node:module') as unknown as { wrapper: string[] }).wrapper[0]!.length;
}
