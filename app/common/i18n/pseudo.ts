import type { Messages } from "./translate";

const ACCENTED: Record<string, string> = {
  a: "ȧ",
  b: "ƀ",
  c: "ƈ",
  d: "ḓ",
  e: "ḗ",
  f: "ƒ",
  g: "ɠ",
  h: "ħ",
  i: "ī",
  j: "ĵ",
  k: "ķ",
  l: "ŀ",
  m: "ḿ",
  n: "ƞ",
  o: "ǿ",
  p: "ƥ",
  q: "ɋ",
  r: "ř",
  s: "ş",
  t: "ŧ",
  u: "ŭ",
  v: "ṽ",
  w: "ẇ",
  x: "ẋ",
  y: "ẏ",
  z: "ẑ",
  A: "Ȧ",
  B: "Ɓ",
  C: "Ƈ",
  D: "Ḓ",
  E: "Ḗ",
  F: "Ƒ",
  G: "Ɠ",
  H: "Ħ",
  I: "Ī",
  J: "Ĵ",
  K: "Ķ",
  L: "Ŀ",
  M: "Ḿ",
  N: "Ƞ",
  O: "Ǿ",
  P: "Ƥ",
  Q: "Ɋ",
  R: "Ř",
  S: "Ş",
  T: "Ŧ",
  U: "Ŭ",
  V: "Ṽ",
  W: "Ẇ",
  X: "Ẋ",
  Y: "Ẏ",
  Z: "Ẑ",
};
const VOWEL = /[aeiouAEIOU]/;

/**
 * One English text in the pseudo-language: letters accented, every vowel doubled (about 35% longer), placeholders kept as they are so values still fill them.
 */
export function pseudoText(text: string): string {
  let out = "";
  for (const piece of text.split(/(\{\{[^}]*\}\})/)) {
    if (piece.startsWith("{{")) {
      out += piece;
      continue;
    }
    for (const char of piece) {
      const accented = ACCENTED[char] ?? char;
      out += accented;
      if (VOWEL.test(char)) out += accented;
    }
  }
  return `［${out}］`;
}

/** The pseudo-language's catalogue, made from the English one. */
export function pseudoMessages(english: Messages): Messages {
  return Object.fromEntries(Object.entries(english).map(([key, text]) => [key, pseudoText(text)]));
}
