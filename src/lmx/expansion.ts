/**
 * How much an email's components may draw. Each `<Component>` draws its whole component again, so
 * a 100 KB email embedding a 100 KB component thousands of times would make gigabytes of HTML: the
 * renderer stops, with a usage error that says so, once components have drawn MAX_COMPONENT_HTML.
 * Components do not nest, so the expansion is one deep.
 */
import { UsageError } from '../base/errors.js';

/** In characters of HTML: a 100 KB component draws about 1 MB, so a real email stays far below. */
export const MAX_COMPONENT_HTML = 16 * 1024 * 1024;

/** The code of the UsageError of an email whose components would draw more than MAX_COMPONENT_HTML. */
export const TOO_MUCH_COMPONENT_HTML = 'too_much_component_html';

/** What the components of one email have drawn so far. */
export class ComponentBudget {
  private drawn = 0;
  private characters = 0;

  /** Counts a component's HTML, and gives it back; throws once the total is over the bound. */
  spend(html: string): string {
    this.drawn += 1;
    this.characters += html.length;
    if (this.characters <= MAX_COMPONENT_HTML) return html;
    throw new UsageError(
      `the email's components draw more than ${MAX_COMPONENT_HTML / 1024 / 1024} MB of HTML (${this.drawn} drawn when it stopped): it is not drawn`,
      { code: TOO_MUCH_COMPONENT_HTML, hint: 'embed fewer components, or smaller ones: each <Component> draws the whole component again' },
    );
  }
}
