/**
 * A component an email names by its directory (`<Component componentId="footer" />`, as `content
 * convert` writes a partial it made a component) rather than by id: once a push has created the
 * component, the state holds the id the account gave `components/footer` in this account, and the
 * next push writes that id in the email's place of the name, in the file too (unless it only
 * plans), so what is sent and what the tree holds stay the same.
 */
import { writeTreeFile } from '../../base/tree-files.js';
import type { SyncedRecord } from './files.js';
import type { RecordFiles } from './emails/files.js';

const COMPONENT_ID = /(<Component\b[^>]*?\bcomponentId=")([^"]*)(")/g;

/** One name written over: where, and with which id. */
export interface Resolved {
  file: string;
  name: string;
  id: string;
}

/**
 * Writes each component's id where an email names the component by its directory, for the
 * components this account knows (`synced`); a name that is also an id of a directory's is left
 * as it is. Changes `locals` in place, and their files unless `write` is false.
 */
export function resolveComponentNames(root: string, locals: RecordFiles[], synced: Readonly<Record<string, SyncedRecord>>, write: boolean): Resolved[] {
  const ids = new Map<string, string>();
  const known = new Set<string>();
  for (const [path, record] of Object.entries(synced)) {
    if (!path.startsWith('components/')) continue;
    ids.set(path.slice('components/'.length), record.id);
    known.add(record.id);
  }
  const resolved: Resolved[] = [];
  for (const local of locals) {
    if (local.kind === 'components') continue;
    for (const [name, text] of local.files) {
      if (!name.endsWith('.lmx')) continue;
      const changed = text.replace(COMPONENT_ID, (whole, open: string, named: string, close: string) => {
        const id = ids.get(named);
        if (id === undefined || known.has(named)) return whole;
        resolved.push({ file: `${local.path}/${name}`, name: named, id });
        return `${open}${id}${close}`;
      });
      if (changed === text) continue;
      local.files.set(name, changed);
      if (write) writeTreeFile(root, `${local.path}/${name}`, changed);
    }
  }
  return resolved;
}
