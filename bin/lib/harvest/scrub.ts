/**
 * What `pnpm eval:harvest` takes out of production text before it keeps any of it (a question, a
 * query, a comment, an answer it quotes): credentials and contact details a person or a system put
 * there, each replaced by a marker and counted by kind, in this order (so a key's digits are never
 * read as a phone number):
 *
 * | kind    | what                                                                                                        | becomes   |
 * | ------- | ----------------------------------------------------------------------------------------------------------- | --------- |
 * | `key`   | API keys by their known prefixes: `sk-…`/`sk_live_…`/`pk_live_…`/`rk_live_…`, `AKIA…` (AWS), `AIza…` (Google), `ghp_…`/`gho_…`/`github_pat_…`, `glpat-…`, `xox[abprs]-…` (Slack), `-----BEGIN … PRIVATE KEY-----` blocks | `[key]`   |
 * | `token` | JSON Web Tokens (`eyJ….….…`), `Bearer <token>`, a value after `token`/`api_key`/`secret`/`password`/`session`… and `=` or `:`, and any run of 32+ hex digits or 40+ base64 characters holding both letters and digits | `[token]` |
 * | `email` | e-mail addresses (`name@domain.tld`)                                                                        | `[email]` |
 * | `phone` | phone numbers: 8 to 15 digits starting with `+`, `00`, `0` or `(`, in groups (spaces, dots, dashes, brackets), not a date | `[phone]` |
 *
 * What it does not catch (docs/evals.md says so too): names, postal addresses, account or customer
 * numbers without a telling prefix, IBANs and card numbers, IP addresses, a phone number written
 * without a leading `+`, `00`, `0` or `(` (`555 123 4567` is, `5551234567` is not), a key of a
 * provider whose prefix it does not know and that is shorter than the token rule's 32/40
 * characters, and anything spelt out in words ("jane at example dot com").
 */

export const SCRUB_KINDS = ["key", "token", "email", "phone"] as const;
export type ScrubKind = (typeof SCRUB_KINDS)[number];
export type ScrubCounts = Record<ScrubKind, number>;

/** A rule: its kind, its pattern, and what of the match it keeps in front of the marker (a label such as `Bearer `). */
interface Rule {
  kind: ScrubKind;
  re: RegExp;
  keep?: (groups: string[]) => string;
}

const RULES: readonly Rule[] = [
  { kind: "key", re: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g },
  {
    kind: "key",
    re: /(?<![A-Za-z0-9_-])(?:sk-(?:proj-|ant-)?[A-Za-z0-9_-]{16,}|(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|glpat-[A-Za-z0-9_-]{20,}|xox[abprs]-[A-Za-z0-9-]{10,})/g,
  },
  { kind: "token", re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g },
  { kind: "token", re: /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, keep: ([label]) => label! },
  {
    kind: "token",
    re: /\b((?:(?:access|refresh|auth|session)[_-]?)?token|api[_-]?key|(?:client[_-]?)?secret|password|passwd|pwd|session(?:[_-]?id)?)(\s*[=:]\s*)["']?[^\s"',;]{6,}["']?/gi,
    keep: ([label, separator]) => `${label}${separator}`,
  },
  { kind: "token", re: /(?<![A-Za-z0-9])[a-f0-9]{32,}(?![A-Za-z0-9])/gi },
  { kind: "token", re: /(?<![A-Za-z0-9+/])(?=[A-Za-z0-9+/_-]*\d)(?=[A-Za-z0-9+/_-]*[A-Za-z])[A-Za-z0-9+/_-]{40,}={0,2}(?![A-Za-z0-9+/])/g },
  { kind: "email", re: /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![A-Za-z0-9-])/g },
  { kind: "phone", re: /(?<![\w+.,/-])(?:\+|00|0|\()[\d\s().-]{6,}\d(?![\w-])/g },
];

/** A phone number's digits: 8 to 15, and not a date (`2024-05-01`, `01.09.2024`). */
function isPhone(match: string): boolean {
  const digits = match.replace(/\D/g, "").length;
  if (digits < 8 || digits > 15) return false;
  return !/^\d{4}-\d{2}-\d{2}$|^\d{2}\.\d{2}\.\d{4}$/.test(match.replace(/^[\s(]+|[\s)]+$/g, ""));
}

/** A scrubber that counts what it replaced, over every text it is given. */
export class Scrubber {
  readonly counts: ScrubCounts = { key: 0, token: 0, email: 0, phone: 0 };

  /** `text` with every match replaced by its kind's marker (module comment). */
  scrub(text: string): string {
    let out = text;
    for (const rule of RULES) {
      out = out.replace(rule.re, (match: string, ...rest: unknown[]) => {
        if (rule.kind === "phone" && !isPhone(match)) return match;
        this.counts[rule.kind]++;
        const groups = rest.filter((g): g is string => typeof g === "string");
        return `${rule.keep ? rule.keep(groups) : ""}[${rule.kind}]`;
      });
    }
    return out;
  }

  get total(): number {
    return SCRUB_KINDS.reduce((n, k) => n + this.counts[k], 0);
  }
}
