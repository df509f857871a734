/** How far a delivery's timestamp may be from now, by default; apart so that declaring `verify` loads no crypto. */
export const DEFAULT_TOLERANCE_SECONDS = 300;
