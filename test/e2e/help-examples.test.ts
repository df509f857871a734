/** Every example of each command's `--help` runs as written against the sandbox (test/support/examples.ts). */
import { describeExamples, helpExamples } from '../support/examples.js';

describeExamples(helpExamples(), { ofDocuments: false });
