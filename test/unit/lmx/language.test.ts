import { describe, expect, it } from 'vitest';
import { languageFindings, languageOf } from '../../../src/lmx/qa/language.js';

/** Real sentences, as transactional emails write them. */
const SENTENCES = {
  en: 'Your password was reset a few minutes ago. If this was not you, contact our support team right away.',
  fr: 'Votre mot de passe a été réinitialisé il y a quelques minutes. Si ce n’était pas vous, contactez notre équipe.',
  de: 'Ihr Passwort wurde vor wenigen Minuten zurückgesetzt. Wenn Sie das nicht waren, wenden Sie sich an unser Team.',
  es: 'Tu contraseña se restableció hace unos minutos. Si no fuiste tú, ponte en contacto con nuestro equipo de soporte.',
  pt: 'A sua palavra-passe foi redefinida há poucos minutos. Se não foi você, contacte a nossa equipa de apoio.',
  nl: 'Je wachtwoord is een paar minuten geleden opnieuw ingesteld. Was jij dit niet, neem dan contact op met ons team.',
};

describe("the email's language against its text's", () => {
  it('tells the language real sentences are written in, and not a greeting alone', () => {
    for (const [code, text] of Object.entries(SENTENCES)) expect(languageOf(text), code).toBe(code);
    expect(languageOf('Hi Ada,')).toBeUndefined();
  });

  it('judges the words alone: variables and addresses neither count as letters nor lead the model', () => {
    // The sandbox's welcome email: a greeting, its variables and a button read as Romanian when counted whole.
    expect(languageOf('Welcome aboard, {contact.firstName} Hi {contact.firstName}, Open Acme https://app.acme.example')).toBeUndefined();
    expect(languageOf(`${SENTENCES.fr} {contact.firstName} https://app.example.com/reset?token={data.token} help@example.com`)).toBe('fr');
  });

  it('finds a missing languageCode (serious), and one that names another language (moderate)', () => {
    expect(languageFindings(undefined, SENTENCES.en, 'languageCode').map((each) => [each.rule, each.impact, each.fix])).toEqual([
      ['language-code-missing', 'serious', 'set it in the message\'s fields (languageCode: "en")'],
    ]);
    const wrong = languageFindings('en', SENTENCES.fr, 'languageCode');
    expect(wrong.map((each) => [each.rule, each.impact, each.message])).toEqual([
      ['language-mismatch', 'moderate', 'languageCode is "en", and the text is written in "fr": screen readers read it in the wrong voice'],
    ]);
    expect(languageFindings('fr', SENTENCES.fr, 'languageCode')).toEqual([]);
    expect(languageFindings('de-AT', SENTENCES.de, 'lang')).toEqual([]);
    // Welsh is not among the languages the model tells apart: not judged, rather than called English.
    expect(languageFindings('cy', 'Diolch am eich archeb. Bydd eich pecyn yn cyrraedd o fewn tri i bum diwrnod gwaith.', 'languageCode')).toEqual([]);
    // An HTML document without lang is lang-missing's to say.
    expect(languageFindings(undefined, SENTENCES.en, 'lang')).toEqual([]);
  });
});
