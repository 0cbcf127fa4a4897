/**
 * A run configuration the user got wrong (a flag, a baseline file, a report to compare, an
 * environment variable): reported on one line, exit status 2, never a stack trace.
 */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}
