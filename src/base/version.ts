/**
 * The package version, written in from package.json by the build (src/build/build.mjs) and by the
 * test runner's config: reading package.json at start-up would cost every run a file.
 */
declare const LOOPSCTL_VERSION: string;

export const VERSION: string = LOOPSCTL_VERSION;

/** Where bugs are reported: package.json's `bugs.url` (a test keeps the two the same). */
export const ISSUES_URL = 'https://github.com/loopsctl/loopsctl/issues';
