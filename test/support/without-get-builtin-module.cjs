// Preloaded with --require: a Node without process.getBuiltinModule, as Node 21 and 22.0 to 22.2
// are, though the engines field lets them run loopsctl.
delete process.getBuiltinModule;
