/** The types of what src/build/release.mjs exports, for its tests (test/unit/build/release.test.ts). */

/** package.json, as far as the release reads it. */
export interface ProjectManifest {
  files: string[];
  [field: string]: unknown;
}

/** The package's files kept compressed (name.br), by their path in the package. */
export declare const COMPRESSED: RegExp;
export declare function stagePackage(from: string, projectManifest: ProjectManifest, staging: string): void;
export declare function publishedManifest(projectManifest: ProjectManifest): Omit<ProjectManifest, 'scripts' | 'devDependencies'>;
export declare function platformName(platform?: NodeJS.Platform, arch?: string): string;
export declare function executableName(releaseVersion: string, platform?: NodeJS.Platform, arch?: string): string;
export declare function executableAssets(from: string, nodeVersion: string, arch: string): Record<string, string>;
/** Files as the executable's one asset `files` (bin/loopsctl.js reads them): an index, then each file at an offset a multiple of 8. */
export declare function packFiles(entries: [string, Buffer][]): Buffer;
export declare function keyringBinary(from: string, platform: NodeJS.Platform, arch: string): string | undefined;
export declare function writeSums(dir?: string): void;
export declare function tagProblem(env: Record<string, string | undefined>, releaseVersion: string): string | undefined;
