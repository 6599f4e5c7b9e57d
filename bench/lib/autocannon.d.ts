/** The part of autocannon's API the bench uses (the package ships no types). */
declare module 'autocannon' {
  namespace autocannon {
    type Options = { url: string; connections?: number; duration?: number; pipelining?: number };
    type Histogram = { average: number; p50: number; p99: number; total: number };
    type Result = { requests: Histogram; latency: Histogram; non2xx: number; errors: number };
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export default autocannon;
}
