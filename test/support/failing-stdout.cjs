// Preloaded with --require: writing to stdout throws a TypeError, as a bug in loopsctl's output
// would, whether through Node's stream or straight to the descriptor, so that the report of an
// internal error can be seen end to end.
const fs = require('node:fs');

const fail = () => {
  throw new TypeError('stdout write failed on purpose');
};
process.stdout.write = fail;
const writeSync = fs.writeSync;
fs.writeSync = (fd, ...rest) => (fd === 1 ? fail() : writeSync(fd, ...rest));
