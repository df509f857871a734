/**
 * The sandbox's components. Their LMX is checked as the API documents: a body over the size limit
 * is 413, one that does not compile is 422, and a change that would put a variable into emails
 * using the component that cannot use it is 422 with invalidTags. The emails using a component are
 * those whose LMX embeds it, counted when asked, as a theme's are (themes.ts).
 */
import { z } from '../../base/shapes.js';
import { componentIdsOf, parseLmx, variablesOf } from '../../lmx/index.js';
import { type Component, component, componentValidationFailure, updatedComponent } from '../../platform/components/schemas.js';
import { DEFAULT_PROPERTY_NAMES } from '../../platform/contact-properties/typing.js';
import { compileLmx, LmxCompileError } from '../guardian.js';
import { ApiFailure, answer, lazily, objectBody, type RouteContext, type SandboxModule, seedId, slice, stringField } from '../module.js';
import { emailMessages } from './email-message-records.js';
import { type KeptById, nameField, pathRecord, readRoutes, someFields } from './kept.js';

/** The sandbox's limit on an LMX body, in characters. */
export const MAX_LMX_LENGTH = 100_000;

const seedComponents = lazily((): Component[] => [
  {
    id: seedId('component/Header'),
    name: 'Header',
    lmx: '<Image src="https://assets.example.com/acme-logo.png" alt="Acme" width="120" />',
  },
  {
    id: seedId('component/Footer'),
    name: 'Footer',
    lmx: [
      '<Divider />',
      '<Paragraph>You are receiving this because you signed up for Acme, {contact.firstName}.</Paragraph>',
      '<Paragraph><Link href="https://acme.example.com/preferences">Email preferences</Link></Paragraph>',
    ].join('\n'),
  },
]);

export const components = slice('components', z.array(component), seedComponents);

/** A component as the API answers it: a state kept by an earlier sandbox may hold more of it. */
const visible = ({ id, name, lmx }: Component): Component => ({ id, name, lmx });

const kept: KeptById<Component> = { records: components, schema: component, param: 'componentId', noun: 'component', shown: visible };

/** How many emails use a component, as their LMX says: those that embed it (`<Component componentId>`). */
function emailsUsing(state: RouteContext['state'], used: Component): number {
  return emailMessages.of(state).filter(({ message }) => componentIdsOf(parseLmx(message.lmx).document).includes(used.id)).length;
}

/** A component's LMX, compiled as the API does: 413 over the size limit, 422 with the first error. */
function checkLmx(fields: Record<string, unknown>, state: RouteContext['state']): string {
  const lmx = stringField(fields, 'lmx');
  if (lmx.length > MAX_LMX_LENGTH) throw new ApiFailure(413, `LMX body exceeds the size limit of ${MAX_LMX_LENGTH} characters`);
  try {
    compileLmx(lmx, 'component', new Set(components.of(state).map((component) => component.id)));
  } catch (error) {
    if (error instanceof LmxCompileError) throw new ApiFailure(422, `Invalid LMX: ${error.message}`);
    throw error;
  }
  return lmx;
}

/** The contact properties a component's LMX shows. */
const contactPropertiesIn = (lmx: string) =>
  new Set(variablesOf(parseLmx(lmx).document).flatMap((variable) => (variable.namespace === 'contact' ? [variable.name] : [])));

function createComponent({ body, state, newId, changed }: RouteContext) {
  const fields = objectBody(body, ['name', 'lmx'], ['name', 'lmx']);
  const created: Component = { id: newId(), name: nameField(fields), lmx: checkLmx(fields, state) };
  components.of(state).push(created);
  changed();
  return answer(component, visible(created), 201);
}

function updateComponent(context: RouteContext) {
  const { body, state, changed } = context;
  const found = pathRecord(kept, context);
  const fields = someFields(body, ['name', 'lmx'], []);
  const name = fields.name === undefined ? undefined : nameField(fields);
  const lmx = fields.lmx === undefined ? undefined : checkLmx(fields, state);
  const using = lmx === undefined ? 0 : emailsUsing(state, found);
  if (lmx !== undefined && using > 0) {
    const before = contactPropertiesIn(found.lmx);
    const invalidTags = [...contactPropertiesIn(lmx)].filter((variable) => !before.has(variable) && !DEFAULT_PROPERTY_NAMES.has(variable));
    if (invalidTags.length > 0) {
      const failure = { message: 'Component uses unsupported contact properties.', invalidTags };
      return answer(componentValidationFailure, failure, 422);
    }
  }
  const bodyChanged = lmx !== undefined && lmx !== found.lmx;
  if (name !== undefined) found.name = name;
  if (lmx !== undefined) found.lmx = lmx;
  changed();
  return answer(updatedComponent, { ...visible(found), affectedEmailCount: bodyChanged ? using : 0 });
}

export const sandbox: SandboxModule = {
  slices: [components],
  routes: [
    ...readRoutes(kept, { operation: 'listComponents', needs: 'content' }, { operation: 'getComponent', needs: 'content' }),
    { operation: 'createComponent', needs: 'content', run: createComponent },
    { operation: 'updateComponent', needs: 'content', run: updateComponent },
  ],
};
