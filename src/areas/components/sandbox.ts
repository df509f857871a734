/**
 * The sandbox's components. Their LMX is checked as the API documents: a body over the size limit
 * is 413, one whose tags do not parse is 422, and a change that would put a variable into emails
 * using the component that cannot use it is 422 with invalidTags.
 */
import { z } from '../../api/schemas.js';
import { answer, ApiFailure, badRequest, find, listAnswer, objectBody, seedId, slice, stringField, type RouteContext, type SandboxModule } from '../../sandbox/module.js';
import { component, componentValidationFailure, updatedComponent, type Component } from './schemas.js';

/** The sandbox's limit on an LMX body, in characters. */
export const MAX_LMX_LENGTH = 100_000;

/** Contact properties every email can use. */
const STANDARD_VARIABLES = new Set(['email', 'firstName', 'lastName', 'userId', 'userGroup', 'source', 'subscribed', 'createdAt']);

/** A component as the sandbox keeps it: with how many emails use it, which the API does not show. */
const storedComponent = component.extend({ emailCount: z.number().int() });
type StoredComponent = z.infer<typeof storedComponent>;

const seedComponents: StoredComponent[] = [
  {
    id: seedId('component/Header'),
    name: 'Header',
    lmx: '<Image src="https://assets.example.com/acme-logo.png" alt="Acme" width="120" />',
    emailCount: 4,
  },
  {
    id: seedId('component/Footer'),
    name: 'Footer',
    lmx: [
      '<Divider />',
      '<Paragraph>You are receiving this because you signed up for Acme, {firstName}.</Paragraph>',
      '<Paragraph><Link href="https://acme.example.com/preferences">Email preferences</Link></Paragraph>',
    ].join('\n'),
    emailCount: 3,
  },
];

export const components = slice('components', z.array(storedComponent), () => seedComponents);

const visible = ({ emailCount: _count, ...shown }: StoredComponent): Component => shown;

/** Why the LMX does not parse: tags must be capitalized names, and each must be closed in order. */
function lmxProblem(lmx: string): string | undefined {
  const open: string[] = [];
  for (const match of lmx.matchAll(/<(\/?)([^\s/>]*)[^>]*?(\/?)>/g)) {
    const [, closing, name, selfClosing] = match;
    if (!/^[A-Z][A-Za-z0-9]*$/.test(name!)) return `"<${closing}${name}" is not an LMX tag`;
    if (selfClosing) continue;
    if (!closing) open.push(name!);
    else if (open.pop() !== name) return `</${name}> closes a tag that is not open`;
  }
  if (open.length > 0) return `<${open.at(-1)}> is never closed`;
  if (/<(?![^<>]*>)/.test(lmx)) return 'a tag is not finished';
  return undefined;
}

function checkLmx(fields: Record<string, unknown>): string {
  const lmx = stringField(fields, 'lmx');
  if (lmx.length > MAX_LMX_LENGTH) throw new ApiFailure(413, `LMX body exceeds the size limit of ${MAX_LMX_LENGTH} characters`);
  const problem = lmxProblem(lmx);
  if (problem !== undefined) throw new ApiFailure(422, `Invalid LMX: ${problem}`);
  return lmx;
}

const variablesOf = (lmx: string) => new Set(Array.from(lmx.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g), (match) => match[1]!));

function createComponent({ body, state, newId, changed }: RouteContext) {
  const fields = objectBody(body, ['name', 'lmx'], ['name', 'lmx']);
  const name = stringField(fields, 'name');
  if (name.trim() === '') throw badRequest('name must not be empty');
  const created: StoredComponent = { id: newId(), name, lmx: checkLmx(fields), emailCount: 0 };
  components.of(state).push(created);
  changed();
  return answer(component, visible(created), 201);
}

function updateComponent({ params, body, state, changed }: RouteContext) {
  const found = find(components.of(state), params.componentId!, 'component');
  const fields = objectBody(body, ['name', 'lmx'], []);
  if (fields.name === undefined && fields.lmx === undefined) throw badRequest('give at least one of name and lmx');
  const name = fields.name === undefined ? undefined : stringField(fields, 'name');
  if (name !== undefined && name.trim() === '') throw badRequest('name must not be empty');
  const lmx = fields.lmx === undefined ? undefined : checkLmx(fields);
  if (lmx !== undefined && found.emailCount > 0) {
    const before = variablesOf(found.lmx);
    const invalidTags = [...variablesOf(lmx)].filter((variable) => !before.has(variable) && !STANDARD_VARIABLES.has(variable));
    if (invalidTags.length > 0) {
      const failure = { message: 'Component uses unsupported contact properties.', invalidTags };
      return answer(componentValidationFailure, failure, 422);
    }
  }
  const bodyChanged = lmx !== undefined && lmx !== found.lmx;
  if (name !== undefined) found.name = name;
  if (lmx !== undefined) found.lmx = lmx;
  changed();
  return answer(updatedComponent, { ...visible(found), affectedEmailCount: bodyChanged ? found.emailCount : 0 });
}

export const sandbox: SandboxModule = {
  slices: [components],
  routes: [
    { method: 'GET', path: '/v1/components', needs: 'content', run: (context) => listAnswer(component, components.of(context.state).map(visible), context) },
    { method: 'POST', path: '/v1/components', needs: 'content', run: createComponent },
    { method: 'GET', path: '/v1/components/:componentId', needs: 'content', run: ({ params, state }) => answer(component, visible(find(components.of(state), params.componentId!, 'component'))) },
    { method: 'POST', path: '/v1/components/:componentId', needs: 'content', run: updateComponent },
  ],
};
