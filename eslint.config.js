// ESLint for the whole tree, run by `npm test` (scripts/test.ts) and `npm run lint`.
// Formatting is Prettier's alone: eslint-config-prettier switches off every rule it would argue with.
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", "build/", "build-*/", ".wrangler/", ".react-router/", "test-results/", "public/"] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.serviceworker } },
    plugins: { "import-x": importX },
    settings: { "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".tsx", ".js", ".json"] })] },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "import-x/no-duplicates": "error",
      "import-x/first": "error",
      "import-x/no-self-import": "error",
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    rules: {
      // These three diagnose code the React Compiler could not optimise. The shop does not run the
      // compiler, so they stay visible as warnings to burn down, not errors that block a build.
      "react-hooks/refs": "warn",
      "react-hooks/set-state-in-effect": "warn",
      "react-hooks/immutability": "warn",
    },
  },
  {
    files: ["app/**/*.tsx"],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    files: ["app/**/*.tsx"],
    rules: {
      // Lists styled without bullets lose their list role in Safari unless it is restated.
      "jsx-a11y/no-redundant-roles": ["error", { ul: ["list"] }],
      // Choice labels wrap their input and carry the text a few spans down.
      "jsx-a11y/label-has-associated-control": ["error", { assert: "either", depth: 4 }],
    },
  },
  {
    // Who may import what (STYLE.md; test/node/boundaries.test.ts proves the same in a scratch tree).
    files: ["app/**", "worker/**", "contract/**"],
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: "./app",
              from: "./worker",
              message: "The storefront talks to the backend through contract/ and app/lib/api only.",
            },
            {
              target: "./app",
              from: "./contract/server",
              message: "contract/server holds what the edge and the backend run; the storefront does not.",
            },
            {
              target: "./contract",
              from: ["./app", "./worker"],
              message: "contract/ is imported by both sides and imports neither.",
            },
            { target: "./worker/backend", from: "./worker/api", message: "The backend does not know the own server." },
            {
              target: "./worker/api",
              from: "./worker/backend",
              message:
                "The own server reaches the backend through worker/backend-client.ts; shared pieces live in contract/server.",
            },
            {
              target: "./worker",
              from: "./app",
              message: "The edge (backend included) does not import storefront code; shared pieces live in contract/.",
            },
          ],
        },
      ],
    },
  },
  prettier,
);
