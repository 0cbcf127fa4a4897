/**
 * The AI SDK, imported on first use and kept. Importing it costs ~250 ms, which runs that never
 * call a model (BM25 only, the CLI's search) should not pay; and a dynamic `import()` on every call
 * still goes through the module loader (~1 ms per balanced query under tsx), so the promise is kept.
 */
let loading: Promise<typeof import("ai")> | undefined;

export function aiSdk(): Promise<typeof import("ai")> {
  loading ??= import("ai");
  return loading;
}
