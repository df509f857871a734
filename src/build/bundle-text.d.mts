/** The types of what src/build/bundle-text.mjs exports, for its tests (test/unit/build/bundle-text.test.ts). */

export declare function finishBundles(files: string[]): Promise<void>;
export declare function refuseDynamicImport(file: string, source: string): void;
export declare function shareNamespaces(source: string): string;
export declare function nameModuleInits(source: string): string;
export declare function namespacesOnInit(source: string, sourceOf: (position: number) => string | undefined): string;
export declare function sourceAt(source: string, sources: string[], mappings: string): (position: number) => string | undefined;
