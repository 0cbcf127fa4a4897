/**
 * Text inside a document that reads as an instruction to an AI assistant ("ignore all previous
 * instructions", "reveal your system prompt", "tell the user that…"). Corpus text is untrusted: such
 * sentences are never used as answer text, and the sources that hold them are flagged in the trace.
 * Patterns cover the four corpus languages; the model path also delimits sources and tells the model
 * to treat them as data, so this list is a second line, not the only one.
 */
const PATTERNS: RegExp[] = [
  /\b(ignore|disregard|forget)\b.{0,40}\b(previous|prior|above|earlier|all)\b.{0,30}\b(instructions?|rules|prompts?|messages?)\b/i,
  /\b(system prompt|developer message|your instructions)\b/i,
  /\b(you are now|act as|pretend to be)\b.{0,40}\b(assistant|ai|model|chatbot|bot)\b/i,
  /\b(ai assistants?|language models?|chatbots?|llms?)\b.{0,60}\b(must|should|always|never)\b/i,
  /\btell the (user|customer|reader)s?\b/i,
  /\b(ignorier(e|en)|vergiss)\b.{0,40}\b(vorherigen|bisherigen|alle)\b.{0,30}\b(anweisungen|regeln)\b/i,
  /\b(ignore[zs]?|oublie[zs]?)\b.{0,40}\b(instructions|consignes)\b/i,
  /\b(ignora|dimentica)\b.{0,40}\b(istruzioni|regole)\b/i,
];

export function looksLikeInstruction(sentence: string): boolean {
  return PATTERNS.some((p) => p.test(sentence));
}
