// Server errors in the player's words: a label per stable error code, else the message.

import { hasLabel, t } from "./i18n.js";
import { inWords } from "./util.js";

/** ``problem``: an ApiError, a protocol ``error`` message or anything with a message. */
export function errorText(problem) {
  const code = problem?.code;
  if (code && hasLabel(`error_${code}`)) return t(`error_${code}`);
  return inWords(problem?.message || String(problem));
}
