// vitest runs the *.vitest.js files only: the *.test.js ones are node:test's.
import { defineConfig } from "vitest/config";

export default defineConfig({ test: { include: ["*.vitest.js"] } });
