/** The variable that names the delivery store to loopsctl's commands (and, by the docs' examples, to an app); apart, so that declarations name it without loading the store. */
export const DELIVERY_STORE_ENV = 'LOOPS_DELIVERY_STORE';
