/**
 * Credentials never leave the request: a message that could quote one (a target's error body
 * echoing the header, a log line of a failed request, a URL with a key in its query) has each
 * occurrence replaced by `[redacted]` before anyone sees it. The suite's HTTP target redacts its
 * token, cookie and an adapter's environment variables from every error it raises; `engine serve`
 * its bearer token from every error it answers or logs.
 *
 * A secret is found in every form it takes on the wire and in text (`secretForms`): as it is,
 * percent-encoded (a path's `encodeURIComponent`, a query's or form's
 * `application/x-www-form-urlencoded`, either case of hex digits), JSON-escaped (a response body
 * quoting it), and base64 (standard or URL-safe, at any of the three byte alignments, so a key
 * inside a Basic credential `user:key` is found too). A secret shorter than `MIN_SECRET_LENGTH`
 * would be redacted out of ordinary words ("abc" in "abcd"): the suite refuses one
 * (`secretProblem`) instead of redacting it.
 */

/** What stands in for a credential. */
export const REDACTED = "[redacted]";

/** The shortest credential the suite accepts: a shorter one would match ordinary text. */
export const MIN_SECRET_LENGTH = 8;

/** Why `value` (the setting `name`) cannot be a credential, or null when it can. */
export function secretProblem(name: string, value: string): string | null {
  if (value.length >= MIN_SECRET_LENGTH) return null;
  return `${name} is ${value.length} character${value.length === 1 ? "" : "s"} long: a credential shorter than ${MIN_SECRET_LENGTH} characters would be redacted out of ordinary words in every message and report; use the real credential`;
}

/** `text` percent-encoded as a query or form value (`URLSearchParams`): a space is `+`. */
const formEncoded = (text: string): string => new URLSearchParams({ v: text }).toString().slice(2);

/** Upper- and lower-case hex digits of every percent escape in `text`. */
function hexCases(text: string): string[] {
  if (!text.includes("%")) return [text];
  return [text, text.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())];
}

/** Base64 characters of `bytes` that do not depend on what comes before or after them, at each byte alignment. */
function base64Cores(bytes: Buffer): string[] {
  const cores: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString("base64");
    const total = shift + bytes.length;
    // A character holds 6 bits: the first wholly the secret's starts after the shift's bits, the last ends with its bytes.
    const core = encoded.slice(Math.ceil((shift * 8) / 6), Math.floor((total * 8) / 6));
    // Too short a core would match base64 text by chance.
    if (core.length >= 6) cores.push(core, core.replaceAll("+", "-").replaceAll("/", "_"));
  }
  return cores;
}

/** Every form `secret` can take in a message, a URL or a body: longest first, so a form is replaced whole. */
export function secretForms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const forms = new Set<string>([
    secret,
    json,
    json.replaceAll("/", "\\/"),
    ...hexCases(encodeURIComponent(secret)),
    ...hexCases(formEncoded(secret)),
    ...hexCases(encodeURI(secret)),
    ...base64Cores(Buffer.from(secret, "utf8")),
  ]);
  forms.delete("");
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * A function that replaces every occurrence of each of `secrets`, in any of its forms, in a text
 * with `[redacted]`; absent or empty secrets are left out.
 */
export function redactor(secrets: ReadonlyArray<string | undefined>): (text: string) => string {
  const forms = [...new Set(secrets.filter((s): s is string => s !== undefined && s !== "").flatMap(secretForms))].sort(
    (a, b) => b.length - a.length,
  );
  if (forms.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
    return out;
  };
}
