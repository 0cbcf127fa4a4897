/**
 * Credentials never leave the request header: a message that could quote one (a target's error
 * body echoing the header, a log line of a failed request) has each occurrence replaced by
 * `[redacted]` before anyone sees it. The suite's HTTP target redacts its token and cookie from
 * every error it raises; `engine serve` its bearer token from every error it answers or logs.
 */

/** What stands in for a credential. */
export const REDACTED = "[redacted]";

/** A function that replaces every occurrence of each of `secrets` in a text with `[redacted]`; absent or empty secrets are left out. */
export function redactor(secrets: ReadonlyArray<string | undefined>): (text: string) => string {
  const present = secrets.filter((s): s is string => s !== undefined && s !== "");
  return (text) => {
    let out = text;
    for (const secret of present) out = out.split(secret).join(REDACTED);
    return out;
  };
}
