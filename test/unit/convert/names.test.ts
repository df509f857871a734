/** The variable report quotes each value as the template writes it, not as convert read it. */
import { describe, expect, it } from 'vitest';
import { fromReact } from './layout-support.js';

describe('the variables as the source says them', () => {
  it('quotes a React attribute’s and a prop object’s own expression: href={trackingUrl} is {trackingUrl}, never {{trackingUrl}}', () => {
    const { findings, lmx } = fromReact(`import { Html, Link, Text } from '@react-email/components';
export default function Shipped(props: { user: { name: string }; trackingUrl: string }) {
  return (
    <Html>
      <Text>Hi {props.user.name}, <Link href={props.trackingUrl}>track your order</Link>.</Text>
    </Html>
  );
}
`);
    expect(lmx).toContain('<Link href="{data.trackingUrl}">track your order</Link>');
    expect([...findings.variables.values()].map((variable) => `${variable.source} -> ${variable.lmx}`)).toEqual([
      '{props.user.name} -> {data.name}',
      '{props.trackingUrl} -> {data.trackingUrl}',
    ]);
  });
});
