/** One id per build (or per `react-router dev` start), set by vite.config.ts's `define`. */
declare const __STUDIO_BUILD_ID__: string;
