declare const loader: { path: string; wasmPath: string };
export = loader;
