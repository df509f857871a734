/** The variable that names the metrics store when --store is not given; apart, so that the declarations and the store share it without a circle. */
export const METRICS_STORE_ENV = 'LOOPS_METRICS_STORE';
