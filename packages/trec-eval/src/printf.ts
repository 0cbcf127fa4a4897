/**
 * C printf's `%.Nf` for doubles, exactly: the binary value is expanded to decimal and rounded
 * to nearest with ties to even (glibc), which `Number#toFixed` does not do (it rounds exact
 * ties up: 0.03125 → "0.0313" where trec_eval prints 0.0312). NaN prints as glibc prints 0/0
 * on x86-64 ("-nan"); infinities as "inf"/"-inf".
 */

const TWO_52 = 2n ** 52n;
const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);

export function formatFixed(x: number, decimals: number): string {
  if (Number.isNaN(x)) return "-nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  const negative = x < 0 || Object.is(x, -0);
  f64[0] = Math.abs(x);
  const bits = u64[0]!;
  const exponent = Number(bits >> 52n);
  const fraction = bits & (TWO_52 - 1n);
  // |x| = mantissa · 2^shift exactly.
  const mantissa = exponent === 0 ? fraction : fraction | TWO_52;
  const shift = (exponent === 0 ? 1 : exponent) - 1075;
  const scale = 10n ** BigInt(decimals);
  let q: bigint;
  if (shift >= 0) {
    q = (mantissa << BigInt(shift)) * scale;
  } else {
    const num = mantissa * scale;
    const den = 1n << BigInt(-shift);
    q = num / den;
    const twice = (num - q * den) * 2n;
    if (twice > den || (twice === den && (q & 1n) === 1n)) q += 1n;
  }
  let digits = q.toString();
  if (decimals > 0) {
    digits = digits.padStart(decimals + 1, "0");
    digits = `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
  }
  return negative ? `-${digits}` : digits;
}

/** `%W.Nf`: formatFixed padded on the left with spaces to at least `width` characters. */
export function formatFixedWidth(x: number, width: number, decimals: number): string {
  return formatFixed(x, decimals).padStart(width, " ");
}
