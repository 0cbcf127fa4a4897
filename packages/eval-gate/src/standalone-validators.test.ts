import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Options } from "ajv";
import { afterAll, describe, expect, it } from "vitest";
import { compileValidator, loadValidator, validatorFile, writeValidators } from "./standalone-validators.js";

const scratch = mkdtempSync(join(tmpdir(), "standalone-validators-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const options: Options = { allErrors: true, verbose: true, strict: true, strictRequired: false };
const person = {
  type: "object",
  required: ["name", "age"],
  additionalProperties: false,
  properties: {
    name: { type: "string", minLength: 1, pattern: "\\S" },
    age: { type: "integer", minimum: 0 },
    tags: { type: "array", uniqueItems: true, items: { enum: ["a", "b"] } },
    kind: { const: "person" },
  },
  if: { properties: { kind: { const: "person" } }, required: ["kind"] },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, a plain object
  then: { required: ["tags"] },
};
const values = [
  {},
  { name: " ", age: -1, extra: 1 },
  { name: "x", age: 1.5, tags: ["a", "a", "c"], kind: "person" },
  { name: "x", age: 1, kind: "robot" },
  { name: "x", age: 1, kind: "person" },
  5,
  null,
  { name: "x", age: 3, tags: ["b"], kind: "person" },
];

describe("validators built as standalone code", () => {
  it("the built code gives Ajv's own results and errors (verbose included), so every message reads the same", () => {
    const dir = join(scratch, "same");
    expect(writeValidators(dir, [{ options, schema: person }])).toBe(1);
    expect(readdirSync(dir)).toEqual([validatorFile({ options, schema: person })]);
    const built = loadValidator({ options, schema: person }, dir);
    const compiled = compileValidator({ options, schema: person });
    for (const value of values) {
      expect(built(value), JSON.stringify(value)).toBe(compiled(value));
      expect(built.errors, JSON.stringify(value)).toEqual(compiled.errors);
    }
  });

  it("checks against a schema it refers to by $id, as Ajv does", () => {
    const shared = { $id: "https://example.test/shared.json", definitions: { id: { type: "string", pattern: "^[a-z]+$" } } };
    const source = {
      options: { allErrors: true, strict: true },
      refs: [shared],
      schema: { $ref: "https://example.test/shared.json#/definitions/id" },
    };
    const dir = join(scratch, "refs");
    expect(writeValidators(dir, [source])).toBe(1);
    const built = loadValidator(source, dir);
    const compiled = compileValidator(source);
    for (const value of ["abc", "ABC", 3]) {
      expect(built(value)).toBe(compiled(value));
      expect(built.errors).toEqual(compiled.errors);
    }
  });

  it("is found by the hash of what it is compiled from: another schema, option or reference names another file", () => {
    const file = validatorFile({ options, schema: person });
    expect(validatorFile({ options, schema: { ...person, required: ["name"] } })).not.toBe(file);
    expect(validatorFile({ options: { ...options, verbose: false }, schema: person })).not.toBe(file);
    expect(validatorFile({ options, refs: [{ $id: "x" }], schema: person })).not.toBe(file);
    // The file of that name is what loads, whatever it holds.
    const dir = join(scratch, "found");
    writeValidators(dir, []);
    writeFileSync(join(dir, file), "module.exports = () => 'the built one';\n");
    expect((loadValidator({ options, schema: person }, dir) as unknown as () => string)()).toBe("the built one");
  });

  it("an edited schema with no built file is compiled at run time", () => {
    const dir = join(scratch, "stale");
    writeValidators(dir, [{ options, schema: person }]);
    const edited = { ...person, required: ["name"] };
    const validate = loadValidator({ options, schema: edited }, dir);
    expect(validate({ name: "x" })).toBe(true);
    expect(validate({})).toBe(false);
    expect(validate.errors?.map((e) => e.keyword)).toEqual(["required"]);
  });

  it("a schema Ajv cannot compile gets no file, and loading it throws Ajv's own error; the folder is emptied first", () => {
    const dir = join(scratch, "broken");
    writeValidators(dir, [{ options, schema: { type: "object" } }]);
    const broken = { type: "strng" };
    expect(
      writeValidators(dir, [
        { options, schema: broken },
        { options, schema: person },
      ]),
    ).toBe(1);
    expect(readdirSync(dir)).toEqual([validatorFile({ options, schema: person })]);
    expect(() => loadValidator({ options, schema: broken }, dir)).toThrow(
      /^schema is invalid: data\/type must be equal to one of the allowed values/,
    );
  });
});
