// Validates an AsyncAPI document with the AsyncAPI parser: every diagnostic printed, exit 1 on any error.
import { Parser } from '@asyncapi/parser';
import { readFileSync } from 'node:fs';

const parser = new Parser();
const { document, diagnostics } = await parser.parse(readFileSync(process.argv[2], 'utf8'));
const severity = ['error', 'warning', 'info', 'hint'];
for (const d of diagnostics) {
  console.log(`${severity[d.severity]} ${d.code} ${d.path.join('.')}: ${d.message}`);
}
process.exit(document && !diagnostics.some((d) => d.severity === 0) ? 0 : 1);
