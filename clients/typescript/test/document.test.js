// @ts-check
// The committed document passes the OpenAPI linter, the committed types are what it generates,
// and the client and these tests type-check against them.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { it } from "node:test";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const documentPath = join(root, "..", "..", "api-server", "src", "main", "resources", "openapi", "openapi.yaml");
const bin = (/** @type {string} */ name) => join(root, "node_modules", ".bin", name);

/** @param {string} command @param {string[]} args */
function run(command, args) {
  try {
    return execFileSync(command, args, { cwd: root, encoding: "utf8", stdio: "pipe", timeout: 120_000 });
  } catch (error) {
    const failure = /** @type {{stdout?: string, stderr?: string}} */ (error);
    assert.fail(`${command} ${args.join(" ")} failed:\n${failure.stdout ?? ""}${failure.stderr ?? ""}`);
  }
}

it("passes the OpenAPI linter (redocly, recommended-strict: a warning fails too)", () => {
  // Exit status 0: no problem beyond the exceptions .redocly.lint-ignore.yaml lists.
  run(bin("redocly"), ["lint", "--config", "lint.redocly.yaml", documentPath]);
});

it("has the generated types committed as openapi-typescript writes them", () => {
  const generated = join(mkdtempSync(join(tmpdir(), "threadline-client-")), "schema.d.ts");
  run(bin("openapi-typescript"), [documentPath, "--default-non-nullable", "false", "-o", generated]);
  assert.equal(
    readFileSync(join(root, "src", "schema.d.ts"), "utf8"),
    readFileSync(generated, "utf8"),
    "src/schema.d.ts is stale: run npm run generate",
  );
});

it("type-checks the client and its tests against the generated types", () => {
  run(bin("tsc"), ["-p", "."]);
});
