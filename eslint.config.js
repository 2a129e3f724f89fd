// ESLint: typescript-eslint's recommended rules without type information (a run over the whole
// tree stays in seconds on two cores), the rules of hooks for the web app, and nothing about
// layout: Prettier formats (eslint-config-prettier turns off the rules it would fight).
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default defineConfig([
  globalIgnores(['dist/', 'data/', 'test/artifacts/', '.prof/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // `const { secret: _secret, ...shown } = row` is how a field is left out of a copy.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    // The two rules of hooks. The plugin's other recommended rules check components for the
    // React Compiler, which this app is not built with.
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // A migration runs on the schema of its own day, not on today's types: Kysely<any>.
    files: ['db/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Tests (and support/, what they share with the benchmark) read untyped JSON (answers,
    // documents) and assert on its shape; `unknown` would only add casts before every expectation.
    files: ['test/**', 'support/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  prettier,
]);
