// Preloaded with --require (through NODE_OPTIONS, which sets no V8 flag: Node's own modules still
// start from the code cache in its binary): samples the process with V8's CPU profiler from here to
// its exit, and writes the profile into BENCH_PROFILE_DIR, one file a process. NODE_OPTIONS is
// taken out of the environment here, so that bin/loopsctl.js takes the shipped code caches as a
// run without it does (it holds no V8 flag, which would make V8 refuse them).
const { Session } = require('node:inspector');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

delete process.env.NODE_OPTIONS;
const session = new Session();
session.connect();
session.post('Profiler.setSamplingInterval', { interval: Number(process.env.BENCH_PROFILE_INTERVAL ?? 50) });
session.post('Profiler.enable');
session.post('Profiler.start');
process.on('exit', () => {
  // The inspector answers a session of this thread before post() returns.
  session.post('Profiler.stop', (error, result) => {
    if (error === null) writeFileSync(join(process.env.BENCH_PROFILE_DIR, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
  });
});
