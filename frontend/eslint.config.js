// The client's lint: TypeScript's and React's rules, and the one-way layers of src/
// (app → features → components → lib), which hold by this file rather than by discipline.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';

const features = readdirSync(join(import.meta.dirname, 'src/features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** A feature may use its own files and the layers below, never another feature. */
const featureZones = features.map((feature) => ({
  target: `./src/features/${feature}`,
  from: './src/features',
  except: [`./${feature}`],
  message: 'A feature does not import another feature: move what both need to components/ or lib/.',
}));

export default tseslint.config(
  // The generated contract (scripts/contract.mjs) is checked to be current, not linted.
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'src/generated/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Build scripts run in Node.
  { files: ['scripts/**/*.mjs'], languageOptions: { globals: { process: 'readonly', console: 'readonly' } } },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    settings: { 'import-x/extensions': ['.ts', '.tsx'], 'import-x/resolver': { node: { extensions: ['.ts', '.tsx'] } } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...featureZones,
            { target: './src/features', from: './src/app', message: 'Features sit below the app layer.' },
            {
              target: ['./src/components', './src/lib'],
              from: ['./src/features', './src/app'],
              message: 'Shared machinery sits below features and the app.',
            },
            { target: './src/lib', from: './src/components', message: 'lib/ sits below components/.' },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
