import { Fragment } from "react";

/**
 * A translated sentence with elements in it (a <time>, a <strong>, a link), whole for the translator:
 * `withElements(t("Signed in {{created}} · last used {{used}}", { created: slot("created"), used: slot("used") }),
 * { created: <When … />, used: <When … /> })`. Each value is a marker `t` puts where the language wants
 * it; the elements then take the markers' places.
 */
export const slot = (name: string) => `\u0000${name}\u0000`;

export function withElements(text: string, elements: Record<string, React.ReactNode>): React.ReactNode[] {
  return text
    .split(/\u0000(\w+)\u0000/)
    .map((part, index) => (index % 2 === 1 ? <Fragment key={index}>{elements[part]}</Fragment> : part ? part : null));
}
