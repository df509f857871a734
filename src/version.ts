/**
 * The package version, written in from package.json by the build (src/build/build.mjs) and by the
 * test runner's config: reading package.json at start-up would cost every run a file.
 */
declare const LOOPSCTL_VERSION: string;

export const VERSION: string = LOOPSCTL_VERSION;
