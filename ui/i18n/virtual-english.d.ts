/** The English catalog's two parts, served by scripts/english-split.ts (vite and vitest). */
declare module 'virtual:english-landing' {
  /** The texts the app's entry and the landing screens show, by key. */
  const texts: Record<string, string>;
  export default texts;
}

declare module 'virtual:english-rest' {
  /** Every other English text, by key. */
  const texts: Record<string, string>;
  export default texts;
}
