/**
 * The contract's error shape, `{"error": {"code", "message"}}` (its `ErrorResponse`): what a
 * target answers with any non-2xx status, and how a client reads one back.
 */
import type { ErrorResponse } from "./types.js";

/** The most a message carries on the wire: one line of at most this many characters (the schema's `maxLength`). */
export const ERROR_MESSAGE_MAX = 1000;

/** An `ErrorResponse`: `code` as given, `message` cut to its first line and `ERROR_MESSAGE_MAX` characters. Never a stack. */
export function errorResponse(code: string, message: string): ErrorResponse {
  return { error: { code, message: message.split("\n")[0]!.slice(0, ERROR_MESSAGE_MAX) } };
}

/**
 * What a non-2xx body says, read leniently (a failing service need not answer in the contract's
 * shape): its code (`""` when it names none) and the first line of its message; null when the body
 * has no message.
 */
export function errorOf(body: unknown): { code: string; message: string } | null {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null | undefined)?.error;
  if (typeof error?.message !== "string") return null;
  return { code: String(error.code ?? ""), message: error.message.split("\n")[0]! };
}
