/** The types of what src/build/bundle-text.mjs exports, for its tests (test/unit/build/bundle-text.test.ts). */

export declare function refuseDynamicImports(files: string[]): Promise<void>;
export declare function shareNamespaces(files: string[]): Promise<void>;
export declare function nameModuleInits(files: string[]): Promise<void>;
