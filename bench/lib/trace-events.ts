/** What the hand-run trace tools share (`bench/trace.ts` for a load, `bench/tap-trace.ts` for a tap). */

/** One event of a Chromium trace, the fields the tools read. */
export type TraceEvent = {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: {
    name?: string;
    data?: {
      url?: string;
      functionName?: string;
      frame?: string;
      type?: string;
      lineNumber?: number;
    };
  };
};

/** A numeric `--name=value` option of the command line, or `fallback`. */
export const option = (name: string, fallback: number): number => {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg ? Number(arg.split('=')[1]) : fallback;
};
