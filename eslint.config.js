// ESLint flat config (decision 0063): typescript-eslint's recommended rules for all TypeScript, the
// React hooks rules and jsx-a11y's recommended rules for the screens, plain JavaScript rules for the
// .mjs scripts. Formatting is Prettier's job (.prettierrc), so no stylistic rules here.
import js from "@eslint/js";
import globals from "globals";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      "build/",
      "build-*/",
      ".react-router/",
      "public/",
      "test-results/",
      "playwright-report/",
      "coverage/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // The control-character classes in the code are there on purpose: to reject or strip them.
      "no-control-regex": "off",
      // Unused names are errors, except the ones marked as deliberately unused with a leading _.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  {
    files: ["app/**/*.tsx", "app/components/**/*.ts", "app/browser/**/*.ts"],
    ...reactHooks.configs.flat["recommended-latest"],
  },
  {
    files: ["app/**/*.tsx", "app/components/**/*.ts", "app/browser/**/*.ts"],
    rules: {
      // A missing dependency is a stale closure: an error, not a warning nobody reads.
      "react-hooks/exhaustive-deps": "error",
      // Three of the React Compiler's rules flag patterns the widgets were written with before the
      // linter (a ref read while rendering, a state set in an effect, a value changed after render).
      // The app does not use the compiler, whose assumptions they check; decision 0063 lists where
      // they fire, for the step that rewrites those widgets.
      "react-hooks/refs": "off",
      "react-hooks/set-state-in-effect": "off",
      "react-hooks/immutability": "off",
    },
  },
  {
    files: ["app/**/*.tsx"],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    files: ["app/**/*.tsx"],
    rules: {
      // The audio and video are people's own recordings and generated clips: there is no caption
      // track to give them.
      "jsx-a11y/media-has-caption": "off",
    },
  },
  {
    // Migrations run on whatever schema the database has at that point, not on today's types:
    // Kysely's own guidance is Kysely<any> there.
    files: ["db/migrations/**/*.ts", "db/portable.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["**/*.mjs", "**/*.js"],
    rules: {
      // Plain JavaScript: typescript-eslint's TS-only rules do not apply.
      "@typescript-eslint/no-require-imports": "off",
    },
  },
  {
    files: ["tests/**/*.{ts,tsx,mjs}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    // Tests read JSON answers and stub servers' bodies whose shape their assertions check.
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // A container that takes clicks only to follow the plain links inside it in the app
    // (app/components/shell/in-app-links.ts): a keyboard's Enter on a link fires the same click, so there is
    // no mouse-only path; the video dialog's backdrop click has Escape beside it.
    files: ["app/**/*.tsx"],
    rules: {
      "jsx-a11y/click-events-have-key-events": "off",
      "jsx-a11y/no-static-element-interactions": "off",
      "jsx-a11y/no-noninteractive-element-interactions": "off",
    },
  },
);
