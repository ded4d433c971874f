// ESLint with typescript-eslint's recommended rules, run by `npm run lint` (and so by .ci/run).
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['node_modules/', 'cdk.out/', 'dist/', 'coverage/', '.data/', 'shared/schemas/generated/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: globals.node,
      // Type information for the rules below: each TypeScript file is checked within its own
      // tsconfig (tsconfig.json, or dashboard/tsconfig.json for the browser app).
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // `_name` marks a value left out on purpose (e.g. a destructured field dropped from an answer).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      eqeqeq: ['error', 'always'],
      // Lambda freezes the environment as soon as the handler's promise settles: a promise nobody
      // awaits stops mid-flight and resumes (or not) in a later invocation. Elsewhere it is an
      // unhandled rejection. Fire-and-forget must be written `void`, with the reason beside it.
      '@typescript-eslint/no-floating-promises': 'error',
      // A promise where a boolean or a void callback is expected (`if (promise)`, an async listener
      // whose rejection nobody receives) is the same mistake in another form.
      '@typescript-eslint/no-misused-promises': 'error',
      // `await` on a value that is no promise is a misunderstanding of what is awaited.
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // Tests read JSON answers loosely (`answer.body.id`): the assertions are the type check there.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The dashboard runs in the browser.
    files: ['dashboard/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
  },
  {
    // The JavaScript configuration files and scripts belong to no tsconfig: no type information.
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // The CommonJS config of dependency-cruiser.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
  },
);
