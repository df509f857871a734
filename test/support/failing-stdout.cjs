// Preloaded with --require: stdout's write throws a TypeError, as a bug in loopsctl's output would,
// so that the report of an internal error can be seen end to end.
process.stdout.write = () => {
  throw new TypeError('stdout write failed on purpose');
};
