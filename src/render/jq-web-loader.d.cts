declare const loader: { path: string };
export = loader;
