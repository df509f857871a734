import type { Jq } from 'jq-web';

declare const loader: { loading: Promise<Jq> };
export = loader;
