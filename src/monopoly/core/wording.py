"""Punctuation where a name meets a sentence's end.

Some printed names end in punctuation of their own (Fallout's "You're S.P.E.C.I.A.L.!",
German "Sie sind S.P.E.C.I.A.L."); a sentence that ends with such a name must not add
its own full stop ("zieht auf Sie sind S.P.E.C.I.A.L.." reads as a typo). An ellipsis
("...") is left alone."""

from __future__ import annotations

import re

_DOUBLED_STOP = re.compile(r"((?<!\.)\.|[!?])\.(?![.\w])")


def one_stop(text: str) -> str:
    """``text`` without a full stop right after a name's own ".", "!" or "?"."""
    return _DOUBLED_STOP.sub(r"\1", text)
