import { Body, Button, Container, Heading, Html, Preview, Text } from '@react-email/components';

export default function WelcomeEmail({ firstName, loginUrl }: { firstName: string; loginUrl: string }) {
  return (
    <Html>
      <Preview>Your account is ready</Preview>
      <Body>
        <Container>
          <Heading as="h1">Welcome, {firstName}</Heading>
          <Text>Your account is ready. Sign in to see what is new in the shop.</Text>
          <Button href={loginUrl}>Sign in</Button>
        </Container>
      </Body>
    </Html>
  );
}
