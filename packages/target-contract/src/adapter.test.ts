/** The adapter's schema and template checks: each problem one line at its JSON Pointer. */
import { describe, expect, it } from "vitest";
import { adapterProblems } from "./adapter.js";

const search = {
  request: { method: "POST", path: "/s", json: { q: "{{query}}", size: "{{limit}}" } },
  response: { results: { list: "/hits", docId: "/id" } },
};

describe("adapterProblems", () => {
  it("accepts every shape of value and list", () => {
    const adapter = {
      name: "svc",
      headers: { "x-key": "{{env.SVC_KEY}}" },
      health: { request: { method: "GET", path: "/{{collection}}/count" }, fingerprint: { pointer: "/count" } },
      search: {
        search,
        vsearch: { ...search, response: { results: { header: "x-ids", delimiter: "," }, elapsedMs: { header: "x-took" } } },
      },
      ask: {
        request: { method: "POST", path: "/ask", form: { q: "{{question}}" } },
        response: { answer: { body: "sse", pointer: "/delta" }, citations: { pointer: "/cited" }, refused: { pointer: "/refused" } },
      },
      expand: {
        request: { method: "GET", path: "/x", query: { q: "{{query}}" } },
        response: { lexicalQueries: { pointer: "/l" }, vectorQueries: { body: "text" } },
      },
      documents: {
        seed: {
          request: { method: "POST", path: "/bulk/{{collection}}", json: { docs: "{{documents}}" } },
          document: { key: "{{document.id}}" },
        },
        delete: { request: { method: "DELETE", path: "/{{collection}}" } },
      },
    };
    expect(adapterProblems(adapter)).toEqual([]);
  });

  it("names the pointer of an unknown field, a missing one, an unknown mode, a bad path", () => {
    expect(
      adapterProblems({ name: "x", search: { search: { ...search, response: { results: { list: "/hits", docid: "/id" } } } } }),
    ).toEqual(['/search/search/response/results: unknown field "docid"']);
    expect(
      adapterProblems({ name: "x", ask: { request: { method: "POST", path: "ask" }, response: { answer: { pointr: "/a" } } } }),
    ).toEqual(["/ask/request/path: must start with / (it is below the base URL)", '/ask/response/answer: unknown field "pointr"']);
    expect(
      adapterProblems({ name: "x", search: { search: { ...search, response: { results: { list: "hits", docId: "/id" } } } } }),
    ).toEqual(['/search/search/response/results/list: must be a JSON Pointer: "" (the whole value) or /member/0/…']);
    expect(adapterProblems({ search: { bm25: search } })[0]).toBe('(the file): missing required field "name"');
    expect(adapterProblems({ name: "x", search: { bm25: search } })).toContain(
      '/search: unknown mode "bm25" (modes: search, vsearch, fast, balanced, thorough)',
    );
    expect(
      adapterProblems({ name: "x", ask: { request: { method: "FETCH", path: "/" }, response: { answer: { body: "html" } } } }),
    ).toEqual(["/ask/request/method: must be one of GET, POST, PUT, PATCH, DELETE", '/ask/response/answer/body: must be "text" or "sse"']);
  });

  it("refuses a field a request does not have, an unclosed template, two bodies, a lower-case environment variable", () => {
    const bad = {
      name: "x",
      headers: { a: "{{env.key}}" },
      search: {
        search: { ...search, request: { method: "POST", path: "/s/{{colection}}", json: { q: "{{question}}", x: "{{bad" }, form: {} } },
      },
      documents: { seed: { each: true, request: { method: "POST", path: "/d", json: { all: "{{documents}}", id: "{{document.id}}" } } } },
    };
    expect(adapterProblems(bad)).toEqual([
      "/headers/a: {{env.key}}: an environment variable's name is upper-case letters, digits and _",
      "/search/search/request: json and form are two bodies: give one",
      "/search/search/request/path: {{colection}} is not a field here (fields: query, mode, limit, collection, language, traceDepth, asOf, includeSuperseded; secrets: {{env.NAME}})",
      "/search/search/request/json/q: {{question}} is not a field here (fields: query, mode, limit, collection, language, traceDepth, asOf, includeSuperseded; secrets: {{env.NAME}})",
      "/search/search/request/json/x: an unclosed {{ (a field is {{name}})",
      expect.stringMatching(/^\/documents\/seed\/request\/json\/all: \{\{documents\}\} is not a field here/),
    ]);
  });
});
