// ESLint with typescript-eslint's recommended rules, run by `npm run lint` (and so by .ci/run).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', 'dist/', 'coverage/', '.data/', 'shared/schemas/generated/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: globals.node },
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
    // The CommonJS config of dependency-cruiser.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
  },
);
