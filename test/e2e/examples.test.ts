/** Every example of the README and the docs runs as written against the sandbox (test/support/examples.ts). */
import { describeExamples, documentExamples } from '../support/examples.js';

describeExamples(documentExamples(), { ofDocuments: true });
