/**
 * A refusal told as sentences (issue 31). The server names the field each problem is about
 * (`reason: too long, at most 500 characters; code: not right`), which a form needs to put the
 * problem beside its field, but which reads like a dump where a person sees it whole (a toast, a
 * form's one message). One place turns it into sentences, so no page words it on its own; the
 * problem's own words, spec texts among them, are kept as they are.
 */

/** A body path as the server names it (`code`, `meetingPoint`, `specificatons.ram`). */
const PATH_PROBLEM = /^([a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)*): (.+)$/s;
/** A problem that reads as a sentence without its field: an instruction or a whole statement. */
const SENTENCE_START =
  /^(?:write|choose|send|set|use|enter|give|add|ask|sign|try|wait|the|a|an|your|this|that|each|at most|at least|no|not a|only|too many)\b/i;

const words = (path: string): string => {
  const leaf = path.split('.').at(-1) ?? path;
  if (/^(?:imei|iban|id|url)$/i.test(leaf)) return leaf.toUpperCase();
  return leaf.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
};
const capitalised = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
const ended = (text: string) => (/[.!?)]$/.test(text) ? text : `${text}.`);

/** One `field: problem` (or a plain part) as a sentence. */
function sentenceOf(part: string): string {
  const match = PATH_PROBLEM.exec(part.trim());
  if (!match) return ended(capitalised(part.trim()));
  const [, path = '', problem = ''] = match;
  const field = words(path);
  if (/^not right\b/i.test(problem)) return `That ${field} is not right.`;
  const long = /^too long,? (.*)$/i.exec(problem);
  if (long) return ended(`The ${field} is too long: ${long[1]}`);
  if (SENTENCE_START.test(problem)) return ended(capitalised(problem));
  return ended(`${capitalised(field)}: ${problem}`);
}

/**
 * "code: not right; 4 tries left" → "That code is not right. 4 tries left." A message that names
 * no field is left exactly as it is (a spec text such as 'Already Booked' among them).
 */
export function plainMessage(message: string): string {
  const parts = message.split(/;\s+/).filter((p) => p.trim() !== '');
  if (!parts.some((p) => PATH_PROBLEM.test(p.trim()))) return message;
  return parts.map(sentenceOf).join(' ');
}
